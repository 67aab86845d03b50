// El Salvador's and Guatemala's monthly files: the user's operations that crossed the country's reporting
// thresholds (law-rules.ts: SV over USD 10,000 and USD 25,000, GT over USD 10,000), in the project's own layout:
// neither the UIF's goAML schema (SV) nor the IVE's forms (GT) were found, so these files are the working record a
// compliance officer transcribes into the regulator's channel. docs/reports/sv.md and gt.md give the layout and the
// open points.
import type { Profile } from "../monitoring/index.ts";
import { delimitedFile, holderName, localDateTime, usd } from "./delimited.ts";
import { type ReportOperation, usdValue, wholeTokens } from "./operations.ts";

export interface ThresholdFile {
  countryCode: "SV" | "GT";
  timeZone: string;
  projectId: number;
  period: string;
  userId: string;
  profile: Profile;
  /** the operations to report, with the rules of this country each infringed */
  operations: { op: ReportOperation; rules: string[] }[];
}

export function thresholdFile(
  input: ThresholdFile,
): { ok: true; content: Buffer } | { ok: false; reason: string } {
  const name = holderName(input.profile);
  if (!name)
    return {
      ok: false,
      reason: "the profile has no name (`givenName` and surnames, or `denominacionRazon`)",
    };
  let sum = 0;
  const body = input.operations.map(({ op, rules }, i) => {
    const at = localDateTime(op.blockTime, input.timeZone);
    const value = usdValue(op) ?? 0;
    sum += value;
    return [
      1,
      i + 1,
      at.date,
      at.time,
      rules.join(";"),
      input.userId,
      name,
      (input.profile.nationality ?? "").toUpperCase(),
      op.direction === "out" ? "E" : "R",
      (op.symbol ?? op.token).toUpperCase(),
      wholeTokens(op.value, op.decimals) ?? "",
      usd(value),
      op.address,
      op.counterparty,
      op.txHash,
    ];
  });
  return {
    ok: true,
    content: delimitedFile([0, input.countryCode, input.projectId, input.period, body.length], body, [
      2,
      body.length,
      usd(sum),
    ]),
  };
}
