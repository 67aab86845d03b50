// The facts of a wallet report, gathered once into one object (docs/api.md, "Wallet background report"): the
// address's labels (sanctions lists included), its activity on every chain the service holds data for, its top
// counterparties with their labels and inferred exchanges, the verdict its risk rests on (the project's latest
// analysis of it of any kind, or a quick check made for the report) with its evidence (the transfers along each
// exposure path and of each pattern, read from the ledger), the financial intelligence units of the project's
// jurisdictions, and what the service could not see. Writers (deterministic.ts, llm.ts) only render these; every
// figure of a report is one of them, and nothing else.
import type { Kysely } from "kysely";
import {
  type AnalysisContext,
  coverageOfRoots,
  DEFAULT_DEPTH,
  latestVerdict,
  quickVerdict,
  scanRisk,
  type VerdictExposure,
  type VerdictFinding,
  type WalletVerdict,
} from "../analysis/index.ts";
import {
  type AddressFamily,
  type ParsedAddress,
  parseTronAddress,
  presentAddresses,
  TRON_CODEC,
} from "../chains/address/index.ts";
import { BITCOIN_CHAIN_IDS, type ChainRegistry, TRON_MAINNET_ID } from "../chains/index.ts";
import { chainNameOf, NON_EVM_CHAIN_IDS } from "../ingest/labels/index.ts";
import { jurisdictionsOf } from "../jurisdictions/index.ts";
import {
  activityOf,
  type Coverage,
  type CoverageSource,
  depositExchangeOf,
  type EvidenceTransfer,
  labelRowsOf,
  topCounterparties,
  transfersAmong,
} from "../ledger/index.ts";
import type { DB } from "../schema.ts";
import { heldOn, outrun } from "./freshness.ts";
import { findingEs, labelsOfVerdict, reasonEs } from "./spanish.ts";
import type { RiskSource } from "./tables.ts";

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

/** A transfer of the evidence, as the ledger holds it. */
export interface TransferFact {
  tx: string;
  day: string;
  from: string;
  to: string;
  /** in whole tokens (4 decimals); null for a token whose decimals the service does not know */
  amount: number | null;
  /** the token's symbol, the chain's currency, or the token's address when its symbol is unknown */
  symbol: string;
  /** at the transfer's day's price; null when unpriced */
  usd: number | null;
}

export interface PatternFact {
  pattern: string;
  severity: string;
  /** null where the analysis did not keep it (a quick check's answer) */
  confidence: number | null;
  /** the risk core's sentence (English, as the API gives it) */
  message: string;
  /** the same, in Spanish, written from the finding's thresholds and evidence (spanish.ts) */
  messageEs: string;
  usdAmount: number;
  /** how many transactions its evidence holds */
  transactions: number;
  /** the first of them */
  txs: string[];
  wallets: string[];
  /** the transfers of those transactions between the pattern's wallets (the first ones, oldest first) */
  transfers: TransferFact[];
}

/** An exposure entry as a path: from the labelled addresses at its far end, through the intermediaries. */
export interface ExposureFact {
  category: string;
  direction: string;
  hops: number;
  usd: number;
  share: number;
  /** the score's exposure points come from this entry */
  drivesScore: boolean;
  /** unsolicited dust (docs/decisions/0030): shown, but it scores at most low */
  unsolicited: boolean;
  counterparties: { address: string; label: string | null }[];
  via: string[];
  /**
   * Bitcoin: the path is this address's, of the wallet's cluster (same owner by common inputs), not the wallet's
   * own; null for the wallet's own
   */
  sameOwnerAs: { address: string; clusterSize: number } | null;
  /** how many transactions are on the paths */
  transactions: number;
  /** the transfers between the path's addresses (the first ones, oldest first) */
  transfers: TransferFact[];
}

export interface RiskFact {
  /** scan, job, investigation: the project's analysis; quick: a quick check made for this report */
  source: Exclude<RiskSource, "none">;
  /** null for a quick check (not stored) */
  analysisId: string | null;
  chain: string;
  analyzedOn: string;
  /** a risk job's date window */
  window: { from: string | null; to: string | null } | null;
  /** an investigation still running: its completed layers of all (the verdict is provisional) */
  provisional: { layers: number; of: number } | null;
  /** hops the analysis reached */
  depth: number;
  /** null: the quick check withheld its verdict (the data it rests on is not current) */
  score: number | null;
  level: string | null;
  /** the risk core's reason (English, as the API gives it) */
  reason: string;
  /** the same in Spanish, written from what drives the score (spanish.ts) */
  reasonEs: string;
  patterns: PatternFact[];
  exposure: ExposureFact[];
  /** what the verdict rests on (null: an analysis stored before verdicts carried it) */
  basis: CoverageFact | null;
}

/** What data a verdict or a chain's figures rest on (src/ledger/coverage.ts), as a report states it. */
export interface CoverageFact {
  source: CoverageSource;
  current: boolean;
  /** the day (UTC) the data reaches */
  dataUntil: string | null;
  /** transfers of the address read (a chain: those the service holds of it) */
  transfersRead: number;
}

export type LimitFact =
  | { kind: "no-data-source"; network: string }
  | { kind: "coverage"; chain: string; coverage: CoverageFact };

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
  /** the financial intelligence units of the project's jurisdictions (none known: the report names none) */
  fius: string[];
  limits: LimitFact[];
  /** risk scores run from 0 to this */
  scoreScale: 100;
}

const TOP_COUNTERPARTIES = 5;
/** transactions listed per pattern, and transfers listed per pattern and per exposure path */
const EVIDENCE_PER_PATTERN = 10;
const TRANSFERS_PER_PATH = 10;
/** chains a quick check is made on, when the project has no analysis of the address (its most active ones) */
const QUICK_CHECK_CHAINS = 3;
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

async function labelsOf(
  db: Kysely<DB>,
  address: string,
  chainIds: number[],
  nameOf: (chainId: number) => string | undefined = () => undefined,
): Promise<LabelFact[]> {
  const rows = await labelRowsOf(db, address, chainIds);
  return rows.map((r) => ({
    chain:
      r.chain_id === 0
        ? "every EVM chain"
        : (nameOf(r.chain_id) ?? chainNameOf(r.chain_id) ?? String(r.chain_id)),
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

/** What a report's risk rests on, for the cache to compare with the latest analysis when it is read. */
export interface RiskBasis {
  source: RiskSource;
  analysisId: string | null;
  /** when that analysis completed (or the running investigation's latest layer did) */
  at: Date | null;
  /** the completed layers of an investigation still running */
  layers: number | null;
}

const NO_BASIS: RiskBasis = { source: "none", analysisId: null, at: null, layers: null };

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

function transferFact(t: EvidenceTransfer, currency: string): TransferFact {
  return {
    tx: t.txHash,
    day: day(t.at),
    from: t.from,
    to: t.to,
    amount: t.decimals === null ? null : round4(Number(t.value) / 10 ** t.decimals),
    symbol: t.token === "native" ? currency : (t.symbol ?? t.token),
    usd: t.usd === null ? null : round2(t.usd),
  };
}

async function patternFact(
  db: Kysely<DB>,
  chain: { id: number; currency: string },
  root: string,
  f: VerdictFinding,
  labels: ReadonlyMap<string, string>,
): Promise<PatternFact> {
  const transfers = await transfersAmong(db, chain.id, {
    txHashes: f.txs,
    addresses: [...new Set([root, f.subject, ...f.wallets])],
    limit: EVIDENCE_PER_PATTERN,
  });
  return {
    pattern: f.pattern,
    severity: f.severity,
    confidence: f.confidence === null ? null : round2(f.confidence),
    message: f.message,
    messageEs: findingEs(f, labels),
    usdAmount: round2(f.usdAmount),
    transactions: f.txs.length,
    txs: f.txs.slice(0, EVIDENCE_PER_PATTERN),
    wallets: f.wallets.slice(0, 3),
    transfers: transfers.map((t) => transferFact(t, chain.currency)),
  };
}

async function exposureFact(
  db: Kysely<DB>,
  chain: { id: number; currency: string },
  root: string,
  e: VerdictExposure,
): Promise<ExposureFact> {
  // A path lent by the cluster starts at that address, not at the wallet.
  const start = e.sameOwnerAs?.address ?? root;
  const transfers = await transfersAmong(db, chain.id, {
    txHashes: e.txs,
    addresses: [...new Set([start, ...e.via, ...e.counterparties.map((c) => c.address)])],
    limit: TRANSFERS_PER_PATH,
  });
  return {
    category: e.category,
    direction: e.direction,
    hops: e.hops,
    usd: round2(e.usd),
    share: round4(e.share),
    drivesScore: e.drivesScore,
    unsolicited: e.unsolicited === true,
    counterparties: e.counterparties.map((c) => ({ address: c.address, label: c.label ?? null })),
    via: e.via,
    sameOwnerAs: e.sameOwnerAs
      ? { address: e.sameOwnerAs.address, clusterSize: e.sameOwnerAs.clusterSize }
      : null,
    transactions: e.txs.length,
    transfers: transfers.map((t) => transferFact(t, chain.currency)),
  };
}

async function riskFact(
  db: Kysely<DB>,
  registry: ChainRegistry,
  root: string,
  v: WalletVerdict,
  now: Date,
): Promise<RiskFact> {
  const c = registry.get(v.chainId);
  const chain = { id: v.chainId, currency: c?.currency_symbol ?? "native" };
  // The path that drives the score first, then the largest.
  const exposure = v.exposure
    .slice()
    .sort((a, b) => Number(b.drivesScore) - Number(a.drivesScore) || b.usd - a.usd)
    .slice(0, TOP_COUNTERPARTIES);
  const patterns: PatternFact[] = [];
  const labels = labelsOfVerdict(v);
  for (const f of v.findings) patterns.push(await patternFact(db, chain, root, f, labels));
  const paths: ExposureFact[] = [];
  for (const e of exposure) paths.push(await exposureFact(db, chain, root, e));
  return {
    source: v.source,
    analysisId: v.analysisId,
    chain: c?.name ?? String(v.chainId),
    analyzedOn: day(v.source === "quick" ? now : v.at),
    window:
      v.window.from || v.window.to
        ? { from: v.window.from ? day(v.window.from) : null, to: v.window.to ? day(v.window.to) : null }
        : null,
    provisional: v.layers ? { layers: v.layers.completed, of: v.layers.total } : null,
    depth: v.maxDepth,
    score: v.score,
    level: v.level,
    reason: v.reason,
    reasonEs: reasonEs(v, root),
    patterns,
    exposure: paths,
    basis: v.coverage ? coverageFact(v.coverage) : null,
  };
}

function coverageFact(c: Coverage): CoverageFact {
  return {
    source: c.source,
    current: c.current,
    dataUntil: c.dataUntil ? day(c.dataUntil) : null,
    transfersRead: c.transfersRead,
  };
}

/**
 * The verdict a report's risk rests on: the project's latest analysis of the address (any kind, on the report's
 * chain when it is narrowed) while the service holds no later transfer of the address than it read (freshness.ts),
 * else a scan made now (stored, so the report names it), else a quick check made now on the chains where the
 * address has transfers (the highest score of them), else none.
 */
async function verdictFor(
  analysis: AnalysisContext,
  q: FactsQuery,
  activity: ChainActivity[],
): Promise<{ verdict: WalletVerdict; basis: RiskBasis } | undefined> {
  const address = storedAddressOf(q.parsed);
  const which = { projectId: q.projectId, address, chainId: q.chainId };
  let latest = await latestVerdict(analysis.db, which);
  if (latest && outrun(latest.verdict, await heldOn(analysis.db, address, latest.verdict.chainId))) {
    const chainId = latest.verdict.chainId;
    await scanRisk(analysis, {
      projectId: q.projectId,
      addresses: [{ address, chainId: String(chainId) }],
      maxDepth: Math.max(DEFAULT_DEPTH, latest.verdict.maxDepth),
      skipExisting: false,
    });
    latest = await latestVerdict(analysis.db, which);
    // A scan that failed leaves the outrun analysis the latest: the quick check below speaks instead of it.
    if (latest && outrun(latest.verdict, await heldOn(analysis.db, address, latest.verdict.chainId)))
      latest = undefined;
  }
  if (latest)
    return {
      verdict: latest.verdict,
      basis: {
        source: latest.verdict.source,
        analysisId: latest.mark.id,
        at: latest.mark.at,
        layers: latest.mark.layers,
      },
    };
  const chains = activity
    .slice()
    .sort((a, b) => b.transfersIn + b.transfersOut - (a.transfersIn + a.transfersOut))
    .slice(0, QUICK_CHECK_CHAINS);
  let best: WalletVerdict | undefined;
  for (const a of chains) {
    const v = await quickVerdict(analysis, q.projectId, address, a.chainId);
    if (!best || (v.score ?? -1) > (best.score ?? -1)) best = v;
  }
  return best ? { verdict: best, basis: { ...NO_BASIS, source: "quick" } } : undefined;
}

/** The financial intelligence units of the project's jurisdictions: the regulator each files to, by its name. */
async function fiusOf(analysis: AnalysisContext, projectId: number): Promise<string[]> {
  const codes = (await analysis.projectJurisdictions?.(projectId)) ?? [];
  return jurisdictionsOf(codes).map((j) => j.regulator.split(", through")[0] as string);
}

/** The facts of a report and what its risk rests on. `analysis` gives the store, the chains and the quick check. */
export async function gatherReportFacts(
  analysis: AnalysisContext,
  q: FactsQuery,
): Promise<{ facts: WalletFacts; basis: RiskBasis }> {
  const { db, registry } = analysis;
  const { parsed } = q;
  let basis = NO_BASIS;
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
    fius: await fiusOf(analysis, q.projectId),
    limits: [],
    scoreScale: 100,
  };
  // A Tron address is read like an EVM one on the Tron-kind chains the service knows, in the stored form
  // (src/chains/address/tron.ts); other families have no data source but their labels.
  const tronChains =
    parsed.family === "tron"
      ? registry.enabled().filter((c) => c.kind === "tron" && (q.chainId === undefined || c.id === q.chainId))
      : [];
  // A Bitcoin address is read on the Bitcoin chains the service holds (imported, followed, or with an Esplora API)
  // whose network writes it (a mainnet address on mainnet's, a regtest one on the devnet's), as it writes it.
  const bitcoinChains =
    parsed.family === "bitcoin"
      ? registry
          .enabled()
          .filter(
            (c) =>
              c.kind === "bitcoin" &&
              "address" in registry.parseAddress(c.id, parsed.address) &&
              (q.chainId === undefined || c.id === q.chainId),
          )
      : [];
  if (parsed.family !== "evm" && tronChains.length === 0 && bitcoinChains.length === 0) {
    const network = FAMILY_NETWORK[parsed.family as Exclude<AddressFamily, "evm">];
    // Tron's labels are kept on Tron mainnet in the stored form (docs/labels.md), older imports under the
    // network's own id as written.
    // Bitcoin's, on Bitcoin mainnet's ledger id in the stored form (docs/decisions/0052-bitcoin-chains.md), older
    // imports under its pseudo chain as written.
    facts.labels =
      parsed.family === "tron"
        ? [
            ...(await labelsOf(db, storedAddressOf(parsed), [TRON_MAINNET_ID], () => "Tron")),
            ...(await labelsOf(db, parsed.address, [NON_EVM_CHAIN_IDS[network] as number])),
          ]
        : parsed.family === "bitcoin"
          ? [
              ...(await labelsOf(db, parsed.address, [BITCOIN_CHAIN_IDS.mainnet], () => "Bitcoin")),
              ...(await labelsOf(db, parsed.address, [NON_EVM_CHAIN_IDS[network] as number])),
            ]
          : await labelsOf(db, parsed.address, [NON_EVM_CHAIN_IDS[network] as number]);
    facts.limits.push({ kind: "no-data-source", network });
  } else {
    const stored = storedAddressOf(parsed);
    const chains =
      parsed.family === "tron"
        ? tronChains
        : parsed.family === "bitcoin"
          ? bitcoinChains
          : q.chainId !== undefined
            ? [registry.get(q.chainId)].filter((c) => c !== undefined)
            : registry.enabled().filter((c) => (c.kind ?? "evm") === "evm");
    // Bitcoin's labels are kept on mainnet's ledger id whatever id the chain list gives mainnet, older imports under
    // the network's pseudo chain (docs/decisions/0052-bitcoin-chains.md).
    const labelChains =
      parsed.family === "tron"
        ? chains.map((c) => c.id)
        : parsed.family === "bitcoin"
          ? [
              ...new Set([
                BITCOIN_CHAIN_IDS.mainnet,
                NON_EVM_CHAIN_IDS.bitcoin as number,
                ...chains.map((c) => c.id),
              ]),
            ]
          : [0, ...chains.map((c) => c.id)];
    facts.labels = await labelsOf(db, stored, labelChains, (id) =>
      id === BITCOIN_CHAIN_IDS.mainnet ? (registry.get(id)?.name ?? "Bitcoin") : registry.get(id)?.name,
    );
    for (const chain of chains) {
      const activity = await activityOn(db, stored, chain.id, chain.name);
      if (activity) {
        facts.activity.push(activity);
        facts.counterparties.push(...(await counterpartiesOn(db, stored, chain.id, chain.name)));
      }
      // What the service holds of the address on the chain: where from, how far, whether current.
      const held = activity ? activity.transfersIn + activity.transfersOut : 0;
      const coverage = (
        await coverageOfRoots(analysis, chain.id, [stored], {
          layers: [],
          transfersRead: new Map([[stored, held]]),
        })
      ).get(stored);
      if (coverage)
        facts.limits.push({ kind: "coverage", chain: chain.name, coverage: coverageFact(coverage) });
    }
    facts.counterparties = facts.counterparties
      .sort(
        (a, b) => b.volumeUsd - a.volumeUsd || b.transfers - a.transfers || (a.address < b.address ? -1 : 1),
      )
      .slice(0, TOP_COUNTERPARTIES);
    const found = await verdictFor(analysis, q, facts.activity);
    if (found) {
      facts.risk = await riskFact(db, registry, stored, found.verdict, q.now);
      basis = found.basis;
    }
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
  // Every address a Tron report names is written as Tron writes it, for the writers and the reader alike.
  const written =
    parsed.family === "tron" ? (presentAddresses(facts, () => TRON_CODEC, TRON_CODEC) as WalletFacts) : facts;
  return { facts: written, basis };
}

/** The form the store keeps an address in: a Tron address's hex (its JSON-RPC form), any other as parsed. */
export function storedAddressOf(parsed: ParsedAddress): string {
  if (parsed.family !== "tron") return parsed.address;
  const tron = parseTronAddress(parsed.address);
  return "address" in tron ? tron.address : parsed.address;
}

export async function gatherFacts(analysis: AnalysisContext, q: FactsQuery): Promise<WalletFacts> {
  return (await gatherReportFacts(analysis, q)).facts;
}

/** Whether the service knows anything of the address (a label, a transfer or an analysis). */
export const isSeen = (facts: WalletFacts) =>
  facts.labels.length > 0 || facts.activity.length > 0 || facts.risk !== null;
