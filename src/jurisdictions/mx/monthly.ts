// Which Mexican files a month needs (docs/reports/mx.md): one AVI per client governed by Mexico with avisos of the
// month, each aviso one operation whose check found an aviso due (MX-AVISO by amount, MX-ACUMULACION by
// accumulation), an accumulation aviso carrying the operations that added up (the same accumulation function the
// checker used, over the same recorded verdicts); or, when the month has no aviso at all (24-hour avisos
// included), the informe en ceros (RCG Art. 25).
import { addMonths, zonedDay, zonedMidnight } from "../../platform/time-zone.ts";
import { bookUnits, type ClientOperation, localIn, type RuleBook } from "../../regulation/index.ts";
import type { FiledAviso, MonthBuild, MonthInput, Refused, Rendered } from "../port.ts";
import { userStem } from "../user-ids.ts";
import { accumulationVersion, sixMonthAccumulation } from "./accumulation.ts";
import { ALERT_CODES, type AviAviso, aviFile, zeroInforme } from "./avi.ts";
import { MX_ACUMULACION, MX_AVISO, MX_COMISION, MX_MONTHLY_RULES, MX_RULES, MX_TIME_ZONE } from "./rules.ts";
import { mxSettings } from "./settings.ts";
import { validateAvi } from "./validate.ts";

export const MX_XML = "application/xml";

/** The name (without extension) of a month's informe en ceros: no user's stem can be it (src/jurisdictions/user-ids.ts). */
export const zeroStem = (period: string) => `informe-en-ceros.${period.replace("-", "")}`;

const hits = (op: ClientOperation, rules: readonly string[]) =>
  op.laws?.some((l) => rules.includes(l)) ?? false;

/** The alert's description of a fee's aviso: the fee, its amount in MXN and the operation it was charged on. */
function feeDescription(fee: ClientOperation): string {
  const mxn = localIn(fee, "MX");
  const e = fee.exchange;
  return `AVISO POR CONTRAPRESTACION LFPIORPI ART. 17 FRACCION XVI INCISO B: COMISION ${e?.fiat?.currency ?? e?.asset?.symbol ?? ""} ${e?.fiat?.amount ?? e?.asset?.amount ?? ""}${mxn === null ? "" : ` EQUIVALENTE A MXN ${mxn.toFixed(2)}`} COBRADA EN LA OPERACION ${e?.of ?? ""}`;
}

/** The first instant of the day six months before the month starts (Mexico City): the accumulation's reach. */
export function mxLookbackStart(bounds: { start: Date }): Date {
  const [y, m, d] = addMonths(zonedDay(bounds.start, MX_TIME_ZONE), -6).split("-").map(Number) as number[];
  return zonedMidnight(y as number, m as number, d as number, MX_TIME_ZONE);
}

/**
 * The avisos of one client's month: one per operation with an aviso due. An accumulation aviso's operations are
 * found again by the checker's own function; should it no longer reach the threshold with them (the client's
 * operations changed since the check: a jurisdiction's address moved, the settings' grouping changed), the aviso is
 * not written from a guess: `doubt` names the operation.
 */
export function monthlyAvisos(
  book: RuleBook,
  settings: unknown,
  clientOperations: ClientOperation[],
  bounds: { start: Date; end: Date },
): { avisos: AviAviso[]; doubt?: ClientOperation } {
  const rule = MX_RULES.find((r) => r.id === MX_ACUMULACION);
  const inMonth = clientOperations.filter(
    (op) => op.blockTime >= bounds.start && op.blockTime < bounds.end && hits(op, MX_MONTHLY_RULES),
  );
  let doubt: ClientOperation | undefined;
  const avisos = inMonth.map((anchor): AviAviso => {
    let operations = [anchor];
    // A fee's aviso (inciso b) reports the operation it was charged on, the fee named in the alert's description.
    if (hits(anchor, [MX_COMISION]) && !hits(anchor, [MX_AVISO, MX_ACUMULACION])) {
      const of = anchor.exchange?.of;
      const parent = clientOperations.find((op) => of !== undefined && op.exchange?.operationId === of);
      if (!parent) doubt ??= anchor;
      return {
        prioridad: 1,
        alert: { code: ALERT_CODES.none, description: feeDescription(anchor) },
        anchor,
        operations: parent ? [parent] : [],
      };
    }
    const version = accumulationVersion(anchor);
    if (!hits(anchor, [MX_AVISO]) && rule && version) {
      const result = sixMonthAccumulation({
        ...bookUnits(book),
        book,
        settings,
        rule,
        version,
        current: anchor,
        history: clientOperations,
      });
      if (typeof result === "string" || !result.reached) doubt ??= anchor;
      else operations = result.operations;
    }
    return { prioridad: 1, alert: { code: ALERT_CODES.none }, anchor, operations };
  });
  return { avisos, ...(doubt ? { doubt } : {}) };
}

/** Keeps the avisos not yet filed, or filed and since changed (those become corrections with the filing's folio). */
function unfiled(
  render: (avisos: AviAviso[], corrections: Map<string, string>) => ReturnType<typeof aviFile>,
  avisos: AviAviso[],
  filed: ReadonlyMap<string, FiledAviso>,
): Rendered {
  const full = render(avisos, new Map());
  if (!full.ok) return full;
  const keep: AviAviso[] = [];
  const corrections = new Map<string, string>();
  for (const [i, entry] of full.entries.entries()) {
    const before = filed.get(entry.reference);
    if (before && before.digest === entry.digest) continue;
    if (before) {
      if (!before.folio)
        return {
          ok: false,
          reason: `aviso ${entry.reference} was filed and has changed, but its filing has no folio: record it (POST /reports/{reportId}/filed with a folio) to write the correction`,
        };
      corrections.set(entry.reference, before.folio);
    }
    keep.push(avisos[i] as AviAviso);
  }
  if (keep.length === 0) return { ok: true, content: undefined };
  const partial = render(keep, corrections);
  return partial.ok ? { ok: true, content: Buffer.from(partial.xml), entries: partial.entries } : partial;
}

export async function checkAgainstXsd(content: Buffer): Promise<string[]> {
  const check = await validateAvi(content.toString("utf8"));
  return check.valid ? [] : check.errors;
}

const blocks = (period: string) => `the monthly AVI of ${period}`;

export async function mxMonthly(book: RuleBook, month: MonthInput): Promise<MonthBuild> {
  const build: MonthBuild = { files: [], refused: [], elsewhere: [], problems: [] };
  const entity = mxSettings(month.settings);
  if (!entity) {
    build.problems.push({
      code: "no_reporting_entity",
      reason:
        "the project has no Mexican reporting entity (`jurisdiction_settings.MX` in its settings): no AVI file can be written",
      field: "jurisdiction_settings.MX",
    });
    return build;
  }
  const users = new Map<string, ClientOperation[]>();
  for (const op of month.operations) users.set(op.userId, [...(users.get(op.userId) ?? []), op]);
  for (const [userId, all] of [...users].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (monthlyAvisos(book, entity, all, month.bounds).avisos.length === 0) continue;
    const client = await month.client(userId, all);
    if (client.kind === "elsewhere") {
      build.elsewhere.push({ userId, governedBy: client.governedBy });
      continue;
    }
    if (client.kind === "unreadable") {
      build.refused.push(refusal(userId, month.period, "profile_unreadable", client.reason));
      continue;
    }
    const { avisos, doubt } = monthlyAvisos(book, entity, client.operations, month.bounds);
    if (avisos.length === 0) continue;
    if (doubt) {
      build.refused.push(
        refusal(
          userId,
          month.period,
          "recomputed",
          doubt.act === "comision"
            ? `the fee ${doubt.exchange?.operationId} met the fee aviso, but the operation ${doubt.exchange?.of} it was charged on is not held: send that operation (POST /projects/{id}/operations) and generate the month again`
            : `the accumulation aviso of transaction ${doubt.txHash} no longer reaches the threshold with the client's operations as they stand (an address's jurisdiction or the accumulation setting changed since the check): review the client's operations before filing`,
        ),
      );
      continue;
    }
    const render = (selected: AviAviso[], corrections: Map<string, string>) =>
      aviFile({
        period: month.period,
        entity,
        userId,
        profile: client.profile,
        avisos: selected,
        corrections,
      });
    const probe = render(avisos, new Map());
    if (!probe.ok) {
      build.refused.push(
        refusal(
          userId,
          month.period,
          probe.field ? "profile_incomplete" : "no_value",
          probe.reason,
          probe.field,
        ),
      );
      continue;
    }
    build.files.push({
      kind: "monthly",
      userId,
      stem: userStem(userId),
      extension: "xml",
      mediaType: MX_XML,
      profile: client.profile,
      validate: checkAgainstXsd,
      render: (filed) => {
        if (filed) return unfiled(render, avisos, filed);
        const full = render(avisos, new Map());
        return full.ok ? { ok: true, content: Buffer.from(full.xml), entries: full.entries } : full;
      },
    });
  }
  // Only a month known to owe nothing gets the informe en ceros, which cannot be withdrawn once sent (RCG Art. 25).
  const owesNothing = month.urgentAvisos === 0 && month.unsettled === 0;
  if (build.files.length === 0 && build.refused.length === 0 && owesNothing) {
    build.files.push({
      kind: "zero",
      userId: null,
      stem: zeroStem(month.period),
      extension: "xml",
      mediaType: MX_XML,
      profile: undefined,
      validate: checkAgainstXsd,
      // An informe en ceros cannot be modified once sent (RCG Art. 25): a filed one is never rewritten.
      render: (filed) =>
        filed
          ? { ok: true, content: undefined }
          : { ok: true, content: Buffer.from(zeroInforme(month.period, entity)), entries: [] },
    });
  }
  return build;
}

function refusal(userId: string, period: string, code: string, reason: string, field?: string): Refused {
  return { kind: "monthly", userId, code, reason, ...(field ? { field } : {}), blocks: blocks(period) };
}
