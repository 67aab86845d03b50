// Which Mexican files a month needs (docs/reports/mx.md): one per user with avisos by amount (an operation of at
// least 210 UMA, 645 before the 2025 reform, or the operation that took the user's six-month accumulation past
// it), each aviso carrying its operation (and, for an accumulation, the operations that added up); or, when the
// month has no aviso at all (24-hour avisos included), the informe en ceros.
import type { MxReportingEntity } from "../../keys/index.ts";
import type { ProfileResult } from "../../monitoring/index.ts";
import { zonedDay } from "../../platform/time-zone.ts";
import {
  MEXICO_TIME_ZONE,
  MX_ACCUMULATION_RULES,
  MX_MONTHLY_AVISO_RULES,
  mxSingleOperationThresholdMxn,
} from "../../regulation/index.ts";
import type { Candidate, FiledAviso, Refused, Rendered } from "../candidate.ts";
import { byUser, mxnValue, type ReportOperation } from "../operations.ts";
import type { PeriodBounds } from "../period.ts";
import { ALERT_CODES, type AviAviso, aviFile, zeroInforme } from "./avi.ts";
import { validateAvi } from "./validate.ts";

export const MX_XML = "application/xml";

/** The name (without extension) of a month's informe en ceros: it holds a dot, which no user id can. */
export const zeroStem = (period: string) => `informe-en-ceros.${period.replace("-", "")}`;

/** How far back the six-month accumulation reaches (half a year, rounded up to 183 days). */
export const ACCUMULATION_WINDOW_MS = 183 * 24 * 3600_000;

const hits = (op: ReportOperation, rules: readonly string[]) => op.laws.some((l) => rules.includes(l));

/** The avisos of one user's month: one per operation with an aviso by amount. */
export function monthlyAvisos(userOperations: ReportOperation[], bounds: PeriodBounds): AviAviso[] {
  const inMonth = userOperations.filter(
    (op) => op.blockTime >= bounds.start && op.blockTime < bounds.end && hits(op, MX_MONTHLY_AVISO_RULES),
  );
  return inMonth.map((anchor) => {
    const accumulated = hits(anchor, MX_ACCUMULATION_RULES)
      ? userOperations.filter((op) => {
          if (op === anchor || op.blockTime > anchor.blockTime) return false;
          if (anchor.blockTime.getTime() - op.blockTime.getTime() > ACCUMULATION_WINDOW_MS) return false;
          if (op.blockTime.getTime() === anchor.blockTime.getTime() && op.txHash >= anchor.txHash)
            return false;
          if (hits(op, MX_MONTHLY_AVISO_RULES)) return false;
          const mxn = mxnValue(op);
          return (
            mxn !== null && mxn < mxSingleOperationThresholdMxn(zonedDay(op.blockTime, MEXICO_TIME_ZONE))
          );
        })
      : [];
    return {
      prioridad: 1,
      alert: { code: ALERT_CODES.none },
      anchor,
      operations: [...accumulated, anchor],
    };
  });
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

async function checkAgainstXsd(content: Buffer): Promise<string[]> {
  const check = await validateAvi(content.toString("utf8"));
  return check.valid ? [] : check.errors;
}

export interface MxMonth {
  period: string;
  bounds: PeriodBounds;
  entity: MxReportingEntity;
  /** the project's checked transfers from six months before the month to its end */
  operations: ReportOperation[];
  /** 24-hour avisos already written for the month */
  urgentCount: number;
  profileOf: (userId: string) => Promise<ProfileResult>;
}

export async function mxCandidates(month: MxMonth): Promise<{ candidates: Candidate[]; refused: Refused[] }> {
  const candidates: Candidate[] = [];
  const refused: Refused[] = [];
  for (const [userId, operations] of byUser(month.operations)) {
    const avisos = monthlyAvisos(operations, month.bounds);
    if (avisos.length === 0) continue;
    const profile = await month.profileOf(userId);
    if (!profile.ok) {
      refused.push({ kind: "monthly", userId, reason: profile.reason });
      continue;
    }
    const render = (selected: AviAviso[], corrections: Map<string, string>) =>
      aviFile({
        period: month.period,
        entity: month.entity,
        userId,
        profile: profile.profile,
        avisos: selected,
        corrections,
      });
    candidates.push({
      kind: "monthly",
      userId,
      stem: userId,
      extension: "xml",
      mediaType: MX_XML,
      profile: profile.profile,
      validate: checkAgainstXsd,
      render: (filed) => {
        if (filed) return unfiled(render, avisos, filed);
        const full = render(avisos, new Map());
        return full.ok ? { ok: true, content: Buffer.from(full.xml), entries: full.entries } : full;
      },
    });
  }
  if (candidates.length === 0 && refused.length === 0 && month.urgentCount === 0) {
    candidates.push({
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
          : { ok: true, content: Buffer.from(zeroInforme(month.period, month.entity)), entries: [] },
    });
  }
  return { candidates, refused };
}
