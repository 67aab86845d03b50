// El Salvador's and Guatemala's monthly files: a client's operations that met one of the country's rules (each an
// indicator whose threshold is not verified against a law in force for virtual assets: docs/regulation.md), in the
// project's own layout. Neither the UIF's goAML schema (SV) nor the IVE's forms (GT) were found, so these files are
// the working record a compliance officer checks and transcribes into the regulator's channel; docs/reports/sv.md
// and gt.md give the layout and the open points.
import { type ClientOperation, usdIn, wholeTokens } from "../regulation/index.ts";
import { delimitedFile, holderName, localDateTime, money } from "./delimited.ts";
import type { Blocked, MonthBuild, MonthInput } from "./port.ts";
import type { Profile } from "./profile.ts";
import { textMonthly } from "./text-month.ts";

export interface ThresholdFile {
  countryCode: string;
  timeZone: string;
  projectId: number;
  period: string;
  userId: string;
  profile: Profile;
  /** the operations to report, with the rules of this country each met */
  operations: { op: ClientOperation; rules: string[] }[];
}

/** Why the profile cannot name the client in these files, or undefined. */
export function nameGap(profile: Profile): Blocked | undefined {
  return holderName(profile)
    ? undefined
    : {
        code: "profile_incomplete",
        reason: "the profile has no name (`givenName` and surnames, or `denominacionRazon`)",
        field: "givenName",
      };
}

export function thresholdFile(
  input: ThresholdFile,
): { ok: true; content: Buffer } | { ok: false; blocked: Blocked } {
  const gap = nameGap(input.profile);
  if (gap) return { ok: false, blocked: gap };
  const name = holderName(input.profile);
  let sum = 0;
  const body = input.operations.map(({ op, rules }, i) => {
    const at = localDateTime(op.blockTime, input.timeZone);
    const value = usdIn(op, input.countryCode) ?? 0;
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
      money(value),
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
      money(sum),
    ]),
  };
}

/** A month of a jurisdiction that writes these working records: a file per client with an operation meeting `rules`. */
export function thresholdMonthly(
  input: MonthInput,
  spec: { countryCode: string; timeZone: string; rules: readonly string[]; name: (period: string) => string },
): Promise<MonthBuild> {
  const met = (op: ClientOperation) => (op.laws ?? []).filter((l) => spec.rules.includes(l));
  return textMonthly(input, {
    rules: spec.rules,
    name: spec.name,
    build: (userId, profile, operations) =>
      thresholdFile({
        countryCode: spec.countryCode,
        timeZone: spec.timeZone,
        projectId: input.projectId,
        period: input.period,
        userId,
        profile,
        operations: operations.filter((op) => met(op).length > 0).map((op) => ({ op, rules: met(op) })),
      }),
  });
}
