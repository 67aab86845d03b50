// The facts of a wallet report, gathered once into one object (docs/api.md, "Wallet background report"): the
// address's labels (sanctions lists included), its activity on every chain the service holds data for, its top
// counterparties with their labels and inferred exchanges, the project's latest risk analysis of it, and what the
// service could not see. Writers (deterministic.ts, llm.ts) only render these; every figure of a report is one of
// them, and nothing else.
import type { Kysely } from "kysely";
import { latestCompleted } from "../analysis/index.ts";
import type { AddressFamily, ParsedAddress } from "../chains/address/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import { chainNameOf, NON_EVM_CHAIN_IDS } from "../ingest/labels/index.ts";
import {
  activityOf,
  depositExchangeOf,
  labelRowsOf,
  latestDataTime,
  topCounterparties,
} from "../ledger/index.ts";
import type { DB } from "../schema.ts";

export interface LabelFact {
  chain: string;
  label: string;
  category: string;
  source: string;
}

export interface ChainActivity {
  chainId: number;
  chain: string;
  firstSeen: string;
  lastSeen: string;
  transfersIn: number;
  transfersOut: number;
  /** USD at each transfer's day's price; transfers without a price count nothing (see unpriced) */
  receivedUsd: number;
  sentUsd: number;
  unpricedTransfers: number;
  counterparties: number;
}

export interface CounterpartyFact {
  chain: string;
  address: string;
  transfers: number;
  volumeUsd: number;
  label: string | null;
  category: string | null;
  /** the exchange whose deposit address it was inferred to be (docs/decisions/0010) */
  depositOf: string | null;
}

export interface PatternFact {
  pattern: string;
  severity: string;
  confidence: number;
  message: string;
  usdAmount: number;
  txs: string[];
  wallets: string[];
}

export interface RiskFact {
  analysisId: string;
  chain: string;
  analyzedOn: string;
  score: number;
  level: string;
  reason: string;
  depth: number;
  patterns: PatternFact[];
  exposure: { category: string; direction: string; usd: number; hops: number }[];
}

export type LimitFact =
  | { kind: "no-data-source"; network: string }
  | { kind: "data-until"; chain: string; date: string }
  | { kind: "no-data"; chain: string };

export interface WalletFacts {
  address: string;
  family: AddressFamily;
  /** the chain the report was narrowed to, if any */
  chain: string | null;
  /** the day the facts were read (UTC) */
  asOf: string;
  labels: LabelFact[];
  sanctioned: boolean;
  activity: ChainActivity[];
  /** the activity across chains, so that no writer adds figures up itself */
  totals: { transfers: number; chains: number; firstSeen: string | null; lastSeen: string | null };
  counterparties: CounterpartyFact[];
  risk: RiskFact | null;
  limits: LimitFact[];
  /** risk scores run from 0 to this */
  scoreScale: 100;
}

const TOP_COUNTERPARTIES = 5;
const EVIDENCE_PER_PATTERN = 3;
const FAMILY_NETWORK: Record<Exclude<AddressFamily, "evm">, keyof typeof NON_EVM_CHAIN_IDS> = {
  bitcoin: "bitcoin",
  solana: "solana",
  tron: "tron",
  stellar: "stellar",
};

const day = (value: Date | string) => new Date(value).toISOString().slice(0, 10);
const round2 = (n: number) => Math.round(n * 100) / 100;

export interface FactsQuery {
  projectId: number;
  parsed: ParsedAddress;
  /** narrows an EVM address to one chain */
  chainId: number | undefined;
  now: Date;
}

async function labelsOf(db: Kysely<DB>, address: string, chainIds: number[]): Promise<LabelFact[]> {
  const rows = await labelRowsOf(db, address, chainIds);
  return rows.map((r) => ({
    chain: r.chain_id === 0 ? "every EVM chain" : (chainNameOf(r.chain_id) ?? String(r.chain_id)),
    label: r.label,
    category: r.category,
    source: r.source,
  }));
}

async function activityOn(
  db: Kysely<DB>,
  address: string,
  chainId: number,
  chain: string,
): Promise<ChainActivity | undefined> {
  const r = await activityOf(db, chainId, address);
  if (!r) return undefined;
  return {
    chainId,
    chain,
    firstSeen: day(r.firstSeen),
    lastSeen: day(r.lastSeen),
    transfersIn: r.transfersIn,
    transfersOut: r.transfersOut,
    receivedUsd: round2(r.receivedUsd),
    sentUsd: round2(r.sentUsd),
    unpricedTransfers: r.unpriced,
    counterparties: r.counterparties,
  };
}

async function counterpartiesOn(
  db: Kysely<DB>,
  address: string,
  chainId: number,
  chain: string,
): Promise<CounterpartyFact[]> {
  const rows = await topCounterparties(db, chainId, address, TOP_COUNTERPARTIES);
  const out: CounterpartyFact[] = [];
  for (const r of rows) {
    const [label] = await labelsOf(db, r.counterparty, [0, chainId]);
    out.push({
      chain,
      address: r.counterparty,
      transfers: r.transfers,
      volumeUsd: round2(r.usd),
      label: label?.label ?? null,
      category: label?.category ?? null,
      depositOf: await depositExchangeOf(db, chainId, r.counterparty),
    });
  }
  return out;
}

async function dataUntil(db: Kysely<DB>, chainId: number): Promise<string | undefined> {
  const at = await latestDataTime(db, chainId);
  return at ? day(at) : undefined;
}

async function riskOf(db: Kysely<DB>, registry: ChainRegistry, q: FactsQuery): Promise<RiskFact | null> {
  const latest = (
    await latestCompleted(db, { projectId: q.projectId, chainId: q.chainId, addresses: [q.parsed.address] })
  ).get(q.parsed.address);
  const r = latest?.result;
  if (!latest || !r) return null;
  return {
    analysisId: latest.id,
    chain: registry.get(latest.chainId)?.name ?? String(latest.chainId),
    analyzedOn: day(latest.completedAt ?? latest.updatedAt),
    score: r.riskScore,
    level: r.riskLevel,
    reason: r.riskReason,
    depth: latest.maxDepth,
    patterns: r.findings.map((f) => ({
      pattern: f.pattern,
      severity: f.severity,
      confidence: round2(f.confidence),
      message: f.message,
      usdAmount: round2(f.usdAmount),
      txs: f.txs.slice(0, EVIDENCE_PER_PATTERN),
      wallets: f.wallets.slice(0, EVIDENCE_PER_PATTERN),
    })),
    exposure: (r.exposure?.entries ?? [])
      .slice()
      .sort((a, b) => b.usd - a.usd)
      .slice(0, TOP_COUNTERPARTIES)
      .map((e) => ({ category: e.category, direction: e.direction, usd: round2(e.usd), hops: e.hops })),
  };
}

export async function gatherFacts(
  db: Kysely<DB>,
  registry: ChainRegistry,
  q: FactsQuery,
): Promise<WalletFacts> {
  const { parsed } = q;
  const facts: WalletFacts = {
    address: parsed.address,
    family: parsed.family,
    chain: q.chainId !== undefined ? (registry.get(q.chainId)?.name ?? String(q.chainId)) : null,
    asOf: day(q.now),
    labels: [],
    sanctioned: false,
    activity: [],
    totals: { transfers: 0, chains: 0, firstSeen: null, lastSeen: null },
    counterparties: [],
    risk: null,
    limits: [],
    scoreScale: 100,
  };
  if (parsed.family !== "evm") {
    const network = FAMILY_NETWORK[parsed.family];
    facts.labels = await labelsOf(db, parsed.address, [NON_EVM_CHAIN_IDS[network] as number]);
    facts.limits.push({ kind: "no-data-source", network });
  } else {
    const chains =
      q.chainId !== undefined ? [registry.get(q.chainId)].filter((c) => c !== undefined) : registry.enabled();
    facts.labels = await labelsOf(db, parsed.address, [0, ...chains.map((c) => c.id)]);
    for (const chain of chains) {
      const activity = await activityOn(db, parsed.address, chain.id, chain.name);
      if (activity) {
        facts.activity.push(activity);
        facts.counterparties.push(...(await counterpartiesOn(db, parsed.address, chain.id, chain.name)));
      }
      const until = await dataUntil(db, chain.id);
      facts.limits.push(
        until
          ? { kind: "data-until", chain: chain.name, date: until }
          : { kind: "no-data", chain: chain.name },
      );
    }
    facts.counterparties = facts.counterparties
      .sort(
        (a, b) => b.volumeUsd - a.volumeUsd || b.transfers - a.transfers || (a.address < b.address ? -1 : 1),
      )
      .slice(0, TOP_COUNTERPARTIES);
    facts.risk = await riskOf(db, registry, q);
  }
  facts.sanctioned = facts.labels.some((l) => l.category === "sanctioned");
  facts.totals = {
    transfers: facts.activity.reduce((n, a) => n + a.transfersIn + a.transfersOut, 0),
    chains: facts.activity.length,
    firstSeen: facts.activity.map((a) => a.firstSeen).sort()[0] ?? null,
    lastSeen:
      facts.activity
        .map((a) => a.lastSeen)
        .sort()
        .at(-1) ?? null,
  };
  return facts;
}

/** Whether the service knows anything of the address (a label, a transfer or an analysis). */
export const isSeen = (facts: WalletFacts) =>
  facts.labels.length > 0 || facts.activity.length > 0 || facts.risk !== null;
