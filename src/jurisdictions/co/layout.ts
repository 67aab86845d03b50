// Colombia's monthly file of a client's virtual-asset transactions (Resolución UIAF 314 de 2021): the individual
// transactions of USD 150 or more or, when the month's transactions together reached USD 450 (the checker's
// CO-TX-450 verdict, from the one calendar-month accumulation), all of them as "multiple" (a transaction reported as
// part of a multiple is not reported again as individual). Values in USD at the day's price and in COP at the day's
// TRM, both of the transaction's day in Bogotá. The official field layout of the PSAV annex was not found;
// docs/reports/co.md gives this layout, its sources, and what to check against the official annex before filing.
import {
  accumulates,
  actOf,
  type ClientOperation,
  cents,
  usdIn,
  VIRTUAL_ASSET_ACTS,
  wholeTokens,
} from "../../regulation/index.ts";
import { delimitedFile, holderName, localDateTime, money } from "../delimited.ts";
import type { Blocked } from "../port.ts";
import type { Profile } from "../profile.ts";
import { textUserId } from "../user-ids.ts";
import { CO_INDIVIDUAL, CO_MULTIPLE, CO_TIME_ZONE } from "./rules.ts";

export type LayoutResult = { ok: true; content: Buffer } | { ok: false; blocked: Blocked };

export interface CoFile {
  codigoSirel: string;
  period: string;
  userId: string;
  profile: Profile;
  /** the client's checked transfers of the month, oldest first */
  operations: ClientOperation[];
}

export interface CoRecord {
  op: ClientOperation;
  usd: number;
  cop: number;
  trm: number;
  kind: "I" | "M";
}

const has = (op: ClientOperation, id: string) => op.laws?.includes(id) ?? false;

/**
 * The operations the month's file reports, each marked I (individual) or M (multiple); or why one cannot be valued.
 * A month's multiple is what its accumulation added up (src/jurisdictions/month-accumulation.ts): the movements with
 * someone else, of a value above zero, that have a price; a transfer without a price was not judged and is not
 * listed (the checker logged and counted it).
 */
export function coReportable(operations: ClientOperation[]): CoRecord[] | Blocked {
  const multiple = operations.some((op) => has(op, CO_MULTIPLE));
  const chosen = multiple
    ? operations.filter(
        (op) => accumulates(op) && VIRTUAL_ASSET_ACTS.includes(actOf(op)) && usdIn(op, "CO") !== null,
      )
    : operations.filter((op) => has(op, CO_INDIVIDUAL));
  const records: CoRecord[] = [];
  for (const op of chosen) {
    const usd = usdIn(op, "CO");
    if (usd === null)
      return { code: "no_value", reason: `transaction ${op.txHash} has no USD price on its day in Bogotá` };
    const valuation = op.valuations.CO;
    const trm = valuation?.currency === "COP" ? valuation.perUsd : null;
    if (trm === null)
      return {
        code: "no_value",
        reason: `no COP rate (TRM) is known for ${valuation?.day ?? "the transaction's day"}: import it with \`vigia import fx\``,
      };
    // Rounded as written, so that the trailer's sums are the sums of the lines.
    records.push({ op, usd: cents(usd), cop: cents(usd * trm), trm, kind: multiple ? "M" : "I" });
  }
  return records;
}

/** Why the profile cannot make a Colombian record, or undefined. */
export function coProfileGap(profile: Profile): Blocked | undefined {
  const co = profile.colombia;
  if (!co?.tipoIdentificacion)
    return {
      code: "profile_incomplete",
      reason: "`colombia.tipoIdentificacion` is missing: the UIAF report identifies the client",
      field: "colombia.tipoIdentificacion",
    };
  if (!co.numeroIdentificacion)
    return {
      code: "profile_incomplete",
      reason: "`colombia.numeroIdentificacion` is missing: the UIAF report identifies the client",
      field: "colombia.numeroIdentificacion",
    };
  if (!holderName(profile))
    return {
      code: "profile_incomplete",
      reason: "the profile has no name (`givenName` and surnames, or `denominacionRazon`)",
      field: "givenName",
    };
  return undefined;
}

export function coFile(input: CoFile): LayoutResult {
  const gap = coProfileGap(input.profile);
  if (gap) return { ok: false, blocked: gap };
  const co = input.profile.colombia ?? {};
  const records = coReportable(input.operations);
  if (!Array.isArray(records)) return { ok: false, blocked: records };
  const [year, month] = input.period.split("-").map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const name = holderName(input.profile);
  const body = records.map(({ op, usd, cop, trm, kind }, i) => {
    const at = localDateTime(op.blockTime, CO_TIME_ZONE);
    return [
      1,
      i + 1,
      at.date,
      at.time,
      co.tipoIdentificacion as string,
      co.numeroIdentificacion as string,
      co.numeroCliente ?? textUserId(input.userId),
      name,
      co.ciudadResidencia ?? "",
      co.fechaVinculacion ? co.fechaVinculacion.replaceAll("-", "") : "",
      co.numeroWallet ?? "-1",
      op.direction === "out" ? "E" : "R",
      // An exchange operation's asset and amount (a buy's, not the pesos paid for it).
      (op.exchange?.asset?.symbol ?? op.symbol ?? op.token).toUpperCase(),
      op.exchange?.asset?.amount ?? wholeTokens(op.value, op.decimals) ?? "",
      money(usd),
      money(cop),
      money(trm),
      op.address || "-",
      op.counterparty || "-",
      op.exchange ? (op.exchange.txHash ?? op.exchange.operationId) : op.txHash,
      kind,
    ];
  });
  const usdSum = records.reduce((s, r) => s + r.usd, 0);
  const copSum = records.reduce((s, r) => s + r.cop, 0);
  return {
    ok: true,
    content: delimitedFile(
      [
        0,
        input.codigoSirel,
        `${input.period.replace("-", "")}${String(lastDay).padStart(2, "0")}`,
        records.length,
      ],
      body,
      [2, records.length, money(usdSum), money(copSum)],
    ),
  };
}
