// El Salvador's and Guatemala's monthly files: a client's operations that met one of the country's rules (each an
// indicator whose threshold is not verified against a law in force for virtual assets: docs/regulation.md), in the
// project's own layout. Neither the UIF's goAML schema (SV) nor the IVE's forms (GT) were found, so these files are
// the working record a compliance officer checks and transcribes into the regulator's channel; docs/reports/sv.md
// and gt.md give the layout and the open points.
import {
  bookUnits,
  type ClientOperation,
  cents,
  type RuleBook,
  usdIn,
  versionOn,
  wholeTokens,
} from "../regulation/index.ts";
import { delimitedFile, holderName, localDateTime, money } from "./delimited.ts";
import type { Blocked, MonthBuild, MonthInput } from "./port.ts";
import type { Profile } from "./profile.ts";
import { textMonthly } from "./text-month.ts";
import { textUserId } from "./user-ids.ts";

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
  const unvalued = input.operations.find(({ op }) => usdIn(op, input.countryCode) === null);
  if (unvalued)
    return {
      ok: false,
      blocked: { code: "no_value", reason: `transaction ${unvalued.op.txHash} has no USD price on its day` },
    };
  let sum = 0;
  const body = input.operations.map(({ op, rules }, i) => {
    const at = localDateTime(op.blockTime, input.timeZone);
    const value = cents(usdIn(op, input.countryCode) as number);
    sum += value;
    return [
      1,
      i + 1,
      at.date,
      at.time,
      rules.join(";"),
      textUserId(input.userId),
      name,
      (input.profile.nationality ?? "").toUpperCase(),
      op.direction === "out" ? "E" : "R",
      // An exchange operation's asset and amount (a buy's, not the fiat paid for it).
      (op.exchange?.asset?.symbol ?? op.symbol ?? op.token).toUpperCase(),
      op.exchange?.asset?.amount ?? wholeTokens(op.value, op.decimals) ?? "",
      money(value),
      op.address || "-",
      op.counterparty || "-",
      op.exchange ? (op.exchange.txHash ?? op.exchange.operationId) : op.txHash,
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

/**
 * A month of a jurisdiction that writes these working records: a file per client with an operation meeting its
 * rules. An accumulated rule's record lists the operations that added up (the same accumulation the checker ran),
 * each marked with the rule, not only the one that passed the amount.
 */
export function thresholdMonthly(
  input: MonthInput,
  spec: { book: RuleBook; name: (period: string) => string },
): Promise<MonthBuild> {
  const { book } = spec;
  const ids = book.rules.map((r) => r.id);
  return textMonthly(input, {
    rules: ids,
    name: spec.name,
    build: (userId, profile, operations) => {
      const rows = new Map<ClientOperation, Set<string>>();
      const mark = (op: ClientOperation, rule: string) => rows.set(op, (rows.get(op) ?? new Set()).add(rule));
      for (const op of operations)
        for (const id of (op.laws ?? []).filter((l) => ids.includes(l))) {
          const rule = book.rules.find((r) => r.id === id);
          const day = op.valuations[book.code]?.day;
          const version = rule && day ? versionOn(rule, day) : undefined;
          const accumulation =
            version?.check.kind === "accumulated"
              ? book.accumulations?.[version.check.accumulation]
              : undefined;
          if (!rule || !version || !accumulation) {
            mark(op, id);
            continue;
          }
          const result = accumulation({
            ...bookUnits(book),
            book,
            settings: input.settings,
            rule,
            version,
            current: op,
            history: operations,
          });
          for (const member of typeof result === "string" ? [op] : result.operations) mark(member, id);
        }
      return thresholdFile({
        countryCode: book.code,
        timeZone: book.timeZone,
        projectId: input.projectId,
        period: input.period,
        userId,
        profile,
        operations: [...rows]
          .sort(([a], [b]) => a.blockTime.getTime() - b.blockTime.getTime())
          .map(([op, rules]) => ({ op, rules: [...rules] })),
      });
    },
  });
}
