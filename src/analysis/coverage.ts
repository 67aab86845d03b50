// The coverage of an analysis's roots (src/ledger/coverage.ts) and the one rule every verdict follows with it
// (docs/decisions/0024-ledger-and-coverage.md): a verdict that finds risk stands on whatever data the service
// holds, with its coverage; a verdict that finds nothing (minimal or low) is an all-clear, and is given only on
// data that is current. Otherwise the address fails with reason `no_data`: no score, no level, and the coverage
// saying why, so that an integrator reading riskLevel never clears an address the service could not see.
import type { Kysely } from "kysely";
import {
  type ChainHolding,
  type Coverage,
  type CoverageLimits,
  chainHolding,
  coverageOf,
} from "../ledger/index.ts";
import { configDefault } from "../platform/config.ts";
import { TtlCache } from "../platform/ttl-cache.ts";
import type { RiskLevel } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { AnalysisContext } from "./context.ts";
import type { BridgeGap, LayerReport } from "./graph/index.ts";

/** The reason code of a verdict withheld for want of current data. */
export const NO_DATA = "no_data";

/** Levels that clear an address: given only on current data. */
const ALL_CLEAR: readonly RiskLevel[] = ["minimal", "low"];

/** The explorer cache's freshness (src/chains/explorer/config.ts): a history older than this is fetched again. */
const EXPLORER_FRESH_MS = 60 * 60_000;

export function coverageLimits(ctx: AnalysisContext): CoverageLimits {
  return (
    ctx.coverageLimits ?? {
      maxLagBlocks: configDefault("VIGIA_COVERAGE_MAX_LAG_BLOCKS"),
      maxSilenceMs: configDefault("VIGIA_COVERAGE_MAX_SILENCE_SECONDS") * 1000,
      explorerFreshMs: EXPLORER_FRESH_MS,
    }
  );
}

/** Whether a verdict of `level` on data of `coverage` must be withheld. */
export function withheld(coverage: Coverage, level: RiskLevel): boolean {
  return coverage.source === "none" || (!coverage.current && ALL_CLEAR.includes(level));
}

/** What a withheld verdict says (its riskReason and error). */
export function noDataReason(coverage: Coverage): string {
  return `No verdict: the service cannot see this address's current history on chain ${coverage.chainId}. ${coverage.note} Finding nothing here would not mean the address is clean.`;
}

// A chain's holding (its indexer's checkpoint and head, the first and last times of its data) changes with each
// indexed block, and every verdict reads it: quick checks run hundreds of times a second, so each process reads it
// once per chain and VIGIA_COVERAGE_TTL_MS (concurrent readers share the read). A verdict's coverage may then be
// that much behind the indexer, which the currency limits (blocks of lag, seconds of silence) dwarf.
const holdings = new WeakMap<Kysely<DB>, TtlCache<number, ChainHolding>>();

function holdingOf(ctx: AnalysisContext, chainId: number): Promise<ChainHolding> {
  const ttlMs = ctx.coverageTtlMs ?? configDefault("VIGIA_COVERAGE_TTL_MS");
  if (ttlMs <= 0) return chainHolding(ctx.db, chainId);
  let cache = holdings.get(ctx.db);
  if (!cache) {
    cache = new TtlCache((id) => chainHolding(ctx.db, id), ttlMs, 1_000);
    holdings.set(ctx.db, cache);
  }
  return cache.get(chainId).then((held) => {
    // A chain that held nothing when read may hold its first data now (an import, the indexer's first batch): an
    // empty holding is not kept, so that no verdict is withheld for the second after a chain's data arrive.
    if (held.checkpoint || held.lastAt !== null) return held;
    cache.delete(chainId);
    return chainHolding(ctx.db, chainId);
  });
}

/** The coverage of each root after its expansion (`layers`: the expansion's reports, the first one the roots'). */
export async function coverageOfRoots(
  ctx: AnalysisContext,
  chainId: number,
  roots: readonly string[],
  o: {
    layers: readonly LayerReport[];
    transfersRead: ReadonlyMap<string, number>;
    windowEnd?: Date | undefined;
  },
): Promise<Map<string, Coverage>> {
  const history = o.layers[0]?.history;
  const failures = new Map<string, string>(history?.failed.map((f) => [f.address, f.error]) ?? []);
  for (const address of history?.skipped ?? []) failures.set(address, "not reached within the time budget");
  return coverageOf(ctx.db, chainId, roots, {
    holding: await holdingOf(ctx, chainId),
    fetches: new Map(history?.records.map((r) => [r.address, r])),
    now: new Date(),
    windowEnd: o.windowEnd,
    hasExplorer: ctx.expansion?.history?.hasExplorer(chainId) ?? false,
    explorerFailures: failures,
    transfersRead: o.transfersRead,
    limits: coverageLimits(ctx),
  });
}

/** Reported bridge gaps per verdict, at most. */
const MAX_BRIDGE_GAPS = 20;

/**
 * A verdict's bridge gaps: those of addresses within `maxDepth` hops of its root (every one when undefined: a
 * graph of one root), nearest first, so that the root's own come before a neighbour's when the list is cut.
 */
export function nearestBridgeGaps(
  gaps: readonly BridgeGap[],
  distances: ReadonlyMap<string, number>,
  maxDepth: number | undefined,
): BridgeGap[] {
  return gaps
    .map((g, i) => ({ g, i, d: distances.get(g.address) ?? Number.POSITIVE_INFINITY }))
    .filter(({ d }) => maxDepth === undefined || d <= maxDepth)
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map(({ g }) => g);
}

/** The coverage with the bridge legs whose other side was not followed, when there are some. */
export function withBridgeGaps(coverage: Coverage, gaps: readonly BridgeGap[]): Coverage {
  if (gaps.length === 0) return coverage;
  const n = gaps.length;
  const unindexed = gaps.filter((g) => g.reason === "chain-not-indexed").length;
  return {
    ...coverage,
    bridgeGaps: gaps.slice(0, MAX_BRIDGE_GAPS).map((g) => ({ ...g })),
    note:
      `${coverage.note} ${n} bridge crossing${n === 1 ? "" : "s"} could not be followed to the other chain` +
      (unindexed > 0 ? ` (${unindexed} to or from a chain this service does not index)` : "") +
      "; value is not traced across them.",
  };
}
