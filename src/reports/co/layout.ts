// Colombia's monthly file of a user's virtual-asset transactions (Resolución UIAF 314 de 2021): the individual
// transactions of USD 150 or more, and, when the month's transactions together reach USD 450, all of them as
// "multiple". The official field layout of the PSAV annex was not found; docs/reports/co.md gives this layout, its
// sources, and what to check against the official annex before filing.
import type { Profile } from "../../monitoring/index.ts";
import { delimitedFile, holderName, localDateTime, usd } from "../delimited.ts";
import { type ReportOperation, usdValue, wholeTokens } from "../operations.ts";

export const CO_TIME_ZONE = "America/Bogota";
export const CO_SINGLE_USD = 150;
export const CO_MULTIPLE_USD = 450;

export type LayoutResult = { ok: true; content: Buffer } | { ok: false; reason: string };

export interface CoFile {
  projectId: number;
  period: string;
  userId: string;
  profile: Profile;
  /** the user's checked transfers of the month, oldest first */
  operations: ReportOperation[];
}

/** The operations the month's file reports, each marked I (individual) or M (multiple); empty when none. */
export function coReportable(
  operations: ReportOperation[],
): { op: ReportOperation; usd: number; kind: "I" | "M" }[] {
  const priced = operations
    .map((op) => ({ op, usd: usdValue(op) }))
    .filter((o): o is { op: ReportOperation; usd: number } => o.usd !== null);
  const total = priced.reduce((sum, o) => sum + o.usd, 0);
  const multiple = Math.round(total * 100) / 100 >= CO_MULTIPLE_USD;
  return priced
    .map((o) => ({ ...o, kind: (Math.round(o.usd * 100) / 100 >= CO_SINGLE_USD ? "I" : "M") as "I" | "M" }))
    .filter((o) => o.kind === "I" || multiple);
}

export function coFile(input: CoFile): LayoutResult {
  const co = input.profile.colombia;
  if (!co?.tipoIdentificacion || !co.numeroIdentificacion)
    return {
      ok: false,
      reason: "the profile has no `colombia.tipoIdentificacion` and `colombia.numeroIdentificacion`",
    };
  const records = coReportable(input.operations);
  const [year, month] = input.period.split("-").map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const name = holderName(input.profile);
  const body = records.map(({ op, usd: value, kind }, i) => {
    const at = localDateTime(op.blockTime, CO_TIME_ZONE);
    return [
      1,
      i + 1,
      at.date,
      at.time,
      co.tipoIdentificacion as string,
      co.numeroIdentificacion as string,
      co.numeroCliente ?? input.userId,
      name,
      co.ciudadResidencia ?? "",
      co.fechaVinculacion ? co.fechaVinculacion.replaceAll("-", "") : "",
      co.numeroWallet ?? "-1",
      op.direction === "out" ? "E" : "R",
      (op.symbol ?? op.token).toUpperCase(),
      wholeTokens(op.value, op.decimals) ?? "",
      usd(value),
      op.address,
      op.counterparty,
      op.txHash,
      kind,
    ];
  });
  const sum = records.reduce((s, r) => s + r.usd, 0);
  return {
    ok: true,
    content: delimitedFile(
      [
        0,
        input.projectId,
        `${input.period.replace("-", "")}${String(lastDay).padStart(2, "0")}`,
        records.length,
      ],
      body,
      [2, records.length, usd(sum)],
    ),
  };
}
