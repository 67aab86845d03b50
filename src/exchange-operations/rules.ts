// The client-level rules over the exchange's operations (docs/api.md "Exchange operations"), pure: given a client's
// operations around the new ones (each valued in USD where a rate or price is known), the project's parameters,
// the client's identity when its profile could be read, the reporting thresholds and the verdicts on withdrawal
// destinations, the hits to raise. Each hit names every operation behind it and the figures a person can check.
//  - fan_in: fiat deposits from at least `minPayers` distinct third-party payers within `windowHours` before a
//    crypto withdrawal (mule accounts feeding one client, then the value leaves on chain);
//  - pass_through: fiat in and crypto out (or crypto in and fiat out) of similar value (`minRatio`, the smaller
//    side over the larger) within `windowHours`, from `minUsd`;
//  - fiat_structuring: `minCount` deposits or more within `windowDays`, each within `band` under a reporting
//    threshold of its currency on its day;
//  - third_party_funding: a fiat deposit whose payer is not the client (name, tax id or own account) nor a source of
//    funds its profile declares (`knownPayers`: its employer), unless a fan-in hit of the same run names it already;
//  - withdrawal_to_risk: a crypto withdrawal whose destination's verdict is at `minLevel` or above, naming the fiat
//    that came in within `fundingHours` before it.
// A hit is raised only when one of its operations is new: an operation judged before is context, not news.
import { compareLevels, type RiskLevel } from "../risk/index.ts";
import { type ClientIdentity, isKnownPayer } from "./client-identity.ts";
import type { OperationItem, OperationOf } from "./schemas.ts";
import type { OperationRuleId, RuleParameters } from "./settings.ts";

export interface ValuedOperation {
  id: string;
  item: OperationItem;
  usd: number | null;
  isNew: boolean;
}

export interface DestinationVerdict {
  level: RiskLevel;
  score: number;
  reason: string;
}

export interface ReportingThreshold {
  name: string;
  amount: number;
}

export interface RuleInput {
  userId: string;
  operations: readonly ValuedOperation[];
  parameters: RuleParameters;
  /** null when the client's profile could not be read: third-party funding is then not judged */
  client: ClientIdentity | null;
  /** the reporting thresholds in `currency` on the day of `at` (each in its jurisdiction's zone) */
  thresholds: (currency: string, at: Date) => readonly ReportingThreshold[];
  /** the verdict on each new crypto withdrawal's destination, by operation id; absent when it could not be made */
  verdicts: ReadonlyMap<string, DestinationVerdict>;
}

export interface RuleHit {
  rule: OperationRuleId;
  /** the alert's subject: the destination for a withdrawal to risk; the client (chain 0, no address) otherwise */
  chainId: number;
  address: string;
  level: RiskLevel;
  /** the operations behind the hit, oldest first */
  operations: ValuedOperation[];
  /** the figures of the hit, for its reason in any language */
  facts: Record<string, string | number>;
  reason: string;
}

export interface RuleOutcome {
  hits: RuleHit[];
  /** rules that could not be judged (and why), for the operations' record and the integrator */
  unjudged: OperationRuleId[];
}

type Fiat = OperationOf<"fiat_deposit"> | OperationOf<"fiat_withdrawal">;
type Crypto = OperationOf<"crypto_deposit"> | OperationOf<"crypto_withdrawal">;

const HOUR = 3_600_000;
const time = (o: ValuedOperation) => Date.parse(o.item.at);
const usdText = (v: number) => `USD ${v.toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
const amountOf = (o: ValuedOperation) => {
  const i = o.item as { amount?: string; currency?: string; asset?: string };
  return `${i.currency ?? i.asset ?? ""} ${i.amount ?? ""}`.trim();
};

/** The payer's key: its tax id, else its account, else its name (upper case, spaces collapsed). */
function payerKey(d: Fiat): string | null {
  const c = d.counterparty;
  if (!c) return null;
  return c.taxId ?? c.account ?? c.pixKey ?? c.name.trim().toUpperCase().replace(/\s+/g, " ");
}

function within(ops: readonly ValuedOperation[], from: number, to: number, kind: OperationItem["kind"]) {
  return ops.filter((o) => o.item.kind === kind && time(o) >= from && time(o) <= to);
}

const sumUsd = (ops: readonly ValuedOperation[]) =>
  Math.round(ops.reduce((s, o) => s + (o.usd ?? 0), 0) * 100) / 100;
/** How many of the operations could not be valued (no rate or price on their day): a sum says it leaves them out. */
const unvalued = (ops: readonly ValuedOperation[]) => ops.filter((o) => o.usd === null).length;
const unvaluedText = (n: number) => (n > 0 ? `, ${n} not valued (no rate or price on their day)` : "");

function fanIn(input: RuleInput): RuleHit[] {
  const p = input.parameters.fan_in;
  if (!p.enabled) return [];
  const hits: RuleHit[] = [];
  for (const w of input.operations.filter((o) => o.item.kind === "crypto_withdrawal")) {
    const deposits = within(input.operations, time(w) - p.windowHours * HOUR, time(w), "fiat_deposit").filter(
      (d) => {
        const c = (d.item as Fiat).counterparty;
        return c !== undefined && !(input.client && isKnownPayer(input.client, c));
      },
    );
    const payers = new Map<string, string>();
    for (const d of deposits) {
      const key = payerKey(d.item as Fiat);
      if (key) payers.set(key, (d.item as Fiat).counterparty?.name ?? key);
    }
    if (payers.size < p.minPayers) continue;
    const ops = [...deposits, w];
    if (!ops.some((o) => o.isNew)) continue;
    const item = w.item as Crypto;
    const facts = {
      payers: payers.size,
      deposits: deposits.length,
      depositsUsd: sumUsd(deposits),
      unvalued: unvalued(deposits),
      first: deposits[0]?.item.at ?? w.item.at,
      last: deposits.at(-1)?.item.at ?? w.item.at,
      withdrawal: `${item.amount} ${item.asset}`,
      destination: item.address,
      withdrawnAt: item.at,
      minPayers: p.minPayers,
      windowHours: p.windowHours,
    };
    hits.push({
      rule: "fan_in",
      chainId: 0,
      address: "",
      level: "high",
      operations: ops,
      facts,
      reason: `Client ${input.userId} received ${deposits.length} fiat deposits from ${payers.size} different payers (${[...payers.values()].slice(0, 5).join(", ")}${payers.size > 5 ? ", …" : ""}) between ${facts.first} and ${facts.last}, ${usdText(facts.depositsUsd)} in all${unvaluedText(facts.unvalued)}, then withdrew ${facts.withdrawal} to ${item.address} at ${item.at}: the project's fan-in rule is ${p.minPayers} payers or more within ${p.windowHours} h before a crypto withdrawal.`,
    });
  }
  return hits;
}

function passThrough(input: RuleInput): RuleHit[] {
  const p = input.parameters.pass_through;
  if (!p.enabled) return [];
  const hits: RuleHit[] = [];
  const pairs = [
    { out: "crypto_withdrawal", in: "fiat_deposit", words: ["fiat in", "crypto out"] },
    { out: "fiat_withdrawal", in: "crypto_deposit", words: ["crypto in", "fiat out"] },
  ] as const;
  for (const pair of pairs)
    for (const w of input.operations.filter((o) => o.item.kind === pair.out && o.usd !== null)) {
      const ins = within(input.operations, time(w) - p.windowHours * HOUR, time(w), pair.in);
      const inUsd = sumUsd(ins);
      const outUsd = w.usd as number;
      if (ins.length === 0 || inUsd < p.minUsd || outUsd < p.minUsd) continue;
      const ratio = Math.min(inUsd, outUsd) / Math.max(inUsd, outUsd);
      if (ratio < p.minRatio) continue;
      const ops = [...ins, w];
      if (!ops.some((o) => o.isNew)) continue;
      const hours = Math.round(((time(w) - time(ins[0] as ValuedOperation)) / HOUR) * 10) / 10;
      hits.push({
        rule: "pass_through",
        chainId: 0,
        address: "",
        level: "medium",
        operations: ops,
        facts: {
          direction: pair.in,
          inUsd,
          outUsd,
          ratio: Math.round(ratio * 1000) / 1000,
          hours,
          minRatio: p.minRatio,
          windowHours: p.windowHours,
        },
        reason: `Client ${input.userId}: ${pair.words[0]} ${usdText(inUsd)} (${ins.length} operations from ${ins[0]?.item.at}) and ${pair.words[1]} ${usdText(outUsd)} (${amountOf(w)} at ${w.item.at}) within ${hours} h, ${Math.round(ratio * 100)} % of one another: the project's pass-through rule is ${Math.round(p.minRatio * 100)} % or more within ${p.windowHours} h, from ${usdText(p.minUsd)}.`,
      });
    }
  return hits;
}

function structuring(input: RuleInput): RuleHit[] {
  const p = input.parameters.fiat_structuring;
  if (!p.enabled) return [];
  const under = input.operations.flatMap((o) => {
    if (o.item.kind !== "fiat_deposit") return [];
    const amount = Number(o.item.amount);
    const t = input
      .thresholds(o.item.currency, new Date(o.item.at))
      .find((th) => amount < th.amount && amount >= th.amount * (1 - p.band));
    return t ? [{ o, t }] : [];
  });
  const hits: RuleHit[] = [];
  const used = new Set<string>();
  for (const end of under) {
    const series = under.filter(
      (u) => time(u.o) <= time(end.o) && time(u.o) >= time(end.o) - p.windowDays * 24 * HOUR,
    );
    if (series.length < p.minCount || !series.some((u) => u.o.isNew)) continue;
    const key = series.map((u) => u.o.id).join(",");
    if (used.has(key)) continue;
    used.add(key);
    const th = end.t;
    hits.push({
      rule: "fiat_structuring",
      chainId: 0,
      address: "",
      level: "medium",
      operations: series.map((u) => u.o),
      facts: {
        deposits: series.length,
        threshold: th.amount,
        thresholdName: th.name,
        currency: (end.o.item as Fiat).currency,
        band: p.band,
        windowDays: p.windowDays,
      },
      reason: `Client ${input.userId} made ${series.length} fiat deposits within ${p.windowDays} days, each within ${Math.round(p.band * 100)} % under the ${th.name} threshold of ${(end.o.item as Fiat).currency} ${th.amount.toLocaleString("en-US")}: ${series.map((u) => `${amountOf(u.o)} at ${u.o.item.at}`).join("; ")}.`,
    });
  }
  return hits;
}

function thirdParty(input: RuleInput, named: ReadonlySet<string>): RuleHit[] {
  const p = input.parameters.third_party_funding;
  if (!p.enabled || !input.client) return [];
  const client = input.client;
  return input.operations
    .filter((o) => o.isNew && o.item.kind === "fiat_deposit" && !named.has(o.id))
    .flatMap((o) => {
      const c = (o.item as Fiat).counterparty;
      if (!c || isKnownPayer(client, c)) return [];
      return [
        {
          rule: "third_party_funding" as const,
          chainId: 0,
          address: "",
          level: "medium" as const,
          operations: [o],
          facts: {
            payer: c.name,
            taxId: c.taxId ?? "",
            account: c.account ?? "",
            operationId: o.item.operationId,
            amount: amountOf(o),
            at: o.item.at,
          },
          reason: `Client ${input.userId} was funded by a third party: ${amountOf(o)} at ${o.item.at} from ${c.name}${c.taxId ? ` (tax id ${c.taxId})` : ""}${c.account ? `, account ${c.account}` : ""}, whose name, tax id and account are not the client's.`,
        },
      ];
    });
}

function withdrawalToRisk(input: RuleInput): RuleHit[] {
  const p = input.parameters.withdrawal_to_risk;
  if (!p.enabled) return [];
  return input.operations
    .filter((o) => o.isNew && o.item.kind === "crypto_withdrawal")
    .flatMap((w) => {
      const v = input.verdicts.get(w.item.operationId);
      if (!v || compareLevels(v.level, p.minLevel) < 0) return [];
      const item = w.item as Crypto;
      const funding = [
        ...within(input.operations, time(w) - p.fundingHours * HOUR, time(w), "fiat_deposit"),
        ...within(input.operations, time(w) - p.fundingHours * HOUR, time(w), "buy"),
      ].sort((a, b) => time(a) - time(b));
      return [
        {
          rule: "withdrawal_to_risk" as const,
          chainId: item.chainId,
          address: item.address,
          level: v.level,
          operations: [...funding, w],
          facts: {
            withdrawal: `${item.amount} ${item.asset}`,
            destination: item.address,
            level: v.level,
            score: v.score,
            funding: funding.length,
            fundingUsd: sumUsd(funding),
            unvalued: unvalued(funding),
            fundingHours: p.fundingHours,
          },
          reason: `Client ${input.userId} withdrew ${item.amount} ${item.asset} at ${item.at} to ${item.address}, whose verdict is ${v.level} (${v.score}): ${v.reason} Funded in the ${p.fundingHours} h before by ${funding.length} operations (${usdText(sumUsd(funding))}${unvaluedText(unvalued(funding))})${funding.length ? `: ${funding.map((f) => `${amountOf(f)} at ${f.item.at}`).join("; ")}` : ""}.`,
        },
      ];
    });
}

/** The hits of every rule on a client's operations. */
export function judgeOperations(input: RuleInput): RuleOutcome {
  const fan = fanIn(input);
  const named = new Set(fan.flatMap((h) => h.operations.map((o) => o.id)));
  const hits = [
    ...fan,
    ...passThrough(input),
    ...structuring(input),
    ...thirdParty(input, named),
    ...withdrawalToRisk(input),
  ];
  const unjudged: OperationRuleId[] = [];
  if (
    input.parameters.third_party_funding.enabled &&
    !input.client &&
    input.operations.some((o) => o.isNew && o.item.kind === "fiat_deposit")
  )
    unjudged.push("third_party_funding");
  if (
    input.parameters.withdrawal_to_risk.enabled &&
    input.operations.some(
      (o) => o.isNew && o.item.kind === "crypto_withdrawal" && !input.verdicts.has(o.item.operationId),
    )
  )
    unjudged.push("withdrawal_to_risk");
  return { hits, unjudged };
}
