// What a verdict rests on (docs/decisions/0024-ledger-and-coverage.md): for a chain and an address, where the
// ledger's data comes from (the indexer following a node, an explorer's history of the address, an import, or
// nothing), how far it reaches, and whether it is current: an index that keeps up with the node, an explorer
// history fetched lately, an import that reaches the end of the window analysed. The analyses attach it to every
// verdict and never give an all-clear on data that is not current.
import { type Static, Type } from "@sinclair/typebox";
import { type Kysely, sql } from "kysely";
import { StringEnum } from "../platform/http/schemas.ts";
import type { DB } from "../schema.ts";
import { type FetchRecord, readFetch } from "./explorer-fetches.ts";

export const COVERAGE_SOURCES = ["index", "explorer", "import", "none"] as const;
export type CoverageSource = (typeof COVERAGE_SOURCES)[number];

const Time = Type.Union([Type.String({ format: "date-time" }), Type.Null()]);

export const CoverageSchema = Type.Object(
  {
    chainId: Type.String(),
    source: StringEnum(COVERAGE_SOURCES, {
      description:
        "index: an indexer follows the chain's node; explorer: the address's history was fetched from an explorer; import: data imported into the service with no follower; none: the service holds no data of the chain",
    }),
    current: Type.Boolean({
      description:
        "the data is current: the index keeps up with the node, the explorer history is fresh, or the import reaches the end of the window analysed (without one, the verdict is as of the import's end, dataUntil). A verdict on data that is not current is never an all-clear",
    }),
    dataFrom: Type.Union([Time], { description: "the earliest time the data reaches back to" }),
    dataUntil: Type.Union([Time], { description: "the latest time the data reaches" }),
    block: Type.Union([Type.String(), Type.Null()], {
      description: "index: the last block the indexer confirmed",
    }),
    lagBlocks: Type.Union([Type.Integer(), Type.Null()], {
      description: "index: blocks between the node's head and the last block confirmed (null: unknown)",
    }),
    transfersRead: Type.Integer({ minimum: 0, description: "transfers the analysis read" }),
    unsupportedConversions: Type.Optional(
      Type.Array(
        Type.Object({
          txHash: Type.String(),
          reason: Type.String({
            description: "why the transaction does not read as one payer and one recipient",
          }),
        }),
        {
          description:
            "transactions near the address that went through a protocol's contracts (a DEX, a lending pool) but do not read as a conversion: their transfers are analysed as they are, and value is not followed across them (docs/risk-model.md, Conversions); at most 20, set only when there are some",
        },
      ),
    ),
    bridgeGaps: Type.Optional(
      Type.Array(
        Type.Object({
          protocol: Type.String({ description: '"Across", "Circle CCTP" or "LayerZero OFT"' }),
          direction: StringEnum(["out", "in"], {
            description: "out: the address deposited into the bridge; in: the bridge delivered to it",
          }),
          address: Type.String({
            description: 'the address, as "address@chainId" when it is on another chain than the analysis',
          }),
          chainId: Type.Integer(),
          txHash: Type.String(),
          otherRef: Type.String({
            description:
              'the other end as the protocol names it: "chain:<id>" (Across), "cctp:<domain>", "lz:<endpoint id>"',
          }),
          otherChainId: Type.Union([Type.Integer(), Type.Null()], {
            description: "the other end's chain id, when the service knows the protocol's name for it",
          }),
          reason: StringEnum(["chain-not-indexed", "other-leg-not-found", "ambiguous"], {
            description:
              "chain-not-indexed: the service does not index the other chain; other-leg-not-found: it does, and holds no matching leg yet (pending, or behind); ambiguous: several legs claim to be the other side",
          }),
        }),
        {
          description:
            "bridge crossings of addresses in the analysis whose other side could not be followed: value is not traced across them (docs/risk-model.md, Bridges); at most 20, set only when there are some",
        },
      ),
    ),
    note: Type.String({ description: "the same in words" }),
  },
  { description: 'what the verdict rests on (docs/api.md, "Coverage")' },
);
export type Coverage = Static<typeof CoverageSchema>;

/** How the ledger judges currency (the configuration table's VIGIA_COVERAGE_* settings). */
export interface CoverageLimits {
  /** blocks an index may be behind the node's head and still be current */
  maxLagBlocks: number;
  /** how long an indexer may stay silent (no head read) and still be current, in ms */
  maxSilenceMs: number;
  /** how old an explorer history may be and still be current, in ms */
  explorerFreshMs: number;
}

export interface CoverageRequest {
  now: Date;
  /** the end of the window analysed (undefined: now) */
  windowEnd?: Date | undefined;
  /** whether the chain fetches address histories from an explorer */
  hasExplorer: boolean;
  /** the explorer's failure for an address in this analysis, by address */
  explorerFailures?: ReadonlyMap<string, string>;
  /** transfers the analysis read, by address */
  transfersRead: ReadonlyMap<string, number>;
  limits: CoverageLimits;
  /**
   * The chain's holding read a moment ago (a caller that answers many requests keeps it for a second: it changes
   * with each indexed block only); read here when absent.
   */
  holding?: ChainHolding;
  /** The explorer's fetch records the analysis was given, by address (read here for the others). */
  fetches?: ReadonlyMap<string, FetchRecord>;
}

export interface ChainHolding {
  checkpoint:
    | {
        block: bigint;
        blockAt: Date | null;
        updatedAt: Date;
        head: bigint | null;
        headSeenAt: Date | null;
      }
    | undefined;
  firstAt: Date | null;
  lastAt: Date | null;
}

const dateOrNull = (v: Date | string | null | undefined) =>
  v === null || v === undefined ? null : new Date(v);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The chain's checkpoint and head, and the times of the first and last data the ledger holds of it. */
export async function chainHolding(db: Kysely<DB>, chainId: number): Promise<ChainHolding> {
  const { rows } = await sql<{
    block_number: string | null;
    block_at: Date | string | null;
    updated_at: Date | string | null;
    head_number: string | null;
    head_seen_at: Date | string | null;
    first_at: Date | string | null;
    last_at: Date | string | null;
  }>`
    SELECT c.block_number::text AS block_number, c.updated_at, c.head_number::text AS head_number, c.head_seen_at,
      (SELECT b.timestamp FROM blocks b WHERE b.chain_id = ${chainId} AND b.number = c.block_number) AS block_at,
      COALESCE(
        (SELECT b.timestamp FROM blocks b WHERE b.chain_id = ${chainId} ORDER BY b.number LIMIT 1),
        (SELECT t.block_time FROM transfers t WHERE t.chain_id = ${chainId} ORDER BY t.block_number LIMIT 1)
      ) AS first_at,
      COALESCE(
        (SELECT b.timestamp FROM blocks b WHERE b.chain_id = ${chainId} ORDER BY b.number DESC LIMIT 1),
        (SELECT t.block_time FROM transfers t WHERE t.chain_id = ${chainId} ORDER BY t.block_number DESC LIMIT 1)
      ) AS last_at
    FROM (SELECT 1) one
    LEFT JOIN indexer_checkpoints c ON c.chain_id = ${chainId}`.execute(db);
  const r = rows[0];
  return {
    checkpoint:
      r?.block_number && r.updated_at
        ? {
            block: BigInt(r.block_number),
            blockAt: dateOrNull(r.block_at),
            updatedAt: new Date(r.updated_at),
            head: r.head_number === null ? null : BigInt(r.head_number),
            headSeenAt: dateOrNull(r.head_seen_at),
          }
        : undefined,
    firstAt: dateOrNull(r?.first_at),
    lastAt: dateOrNull(r?.last_at),
  };
}

/** The coverage of each address of one chain's analysis. */
export async function coverageOf(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
  req: CoverageRequest,
): Promise<Map<string, Coverage>> {
  const holding = req.holding ?? (await chainHolding(db, chainId));
  const out = new Map<string, Coverage>();
  for (const address of addresses) {
    const read = req.transfersRead.get(address) ?? 0;
    if (holding.checkpoint) {
      out.set(address, indexCoverage(chainId, holding, holding.checkpoint, read, req));
    } else if (req.hasExplorer) {
      const fetch = req.fetches?.get(address) ?? (await readFetch(db, chainId, address));
      out.set(address, explorerCoverage(chainId, fetch, read, req, req.explorerFailures?.get(address)));
    } else {
      out.set(address, importCoverage(chainId, holding, read, req));
    }
  }
  return out;
}

function indexCoverage(
  chainId: number,
  holding: ChainHolding,
  c: NonNullable<ChainHolding["checkpoint"]>,
  transfersRead: number,
  req: CoverageRequest,
): Coverage {
  const lag = c.head === null ? null : Number(c.head > c.block ? c.head - c.block : 0n);
  const alive = c.headSeenAt ?? c.updatedAt;
  const silentMs = req.now.getTime() - alive.getTime();
  const keepsUp = lag === null || lag <= req.limits.maxLagBlocks;
  const current = silentMs <= req.limits.maxSilenceMs && keepsUp;
  const at = c.blockAt ? ` (${c.blockAt.toISOString()})` : "";
  const note = current
    ? `Indexed up to block ${c.block}${at}${lag === null ? "" : `, ${lag} blocks behind the node's head`}.`
    : !keepsUp
      ? `The index is ${lag} blocks behind the node's head: transfers after block ${c.block}${at} are not read yet.`
      : `The indexer has not reported since ${alive.toISOString()}: transfers after block ${c.block}${at} may be missing.`;
  return {
    chainId: String(chainId),
    source: "index",
    current,
    dataFrom: iso(holding.firstAt),
    dataUntil: iso(c.blockAt),
    block: c.block.toString(),
    lagBlocks: lag,
    transfersRead,
    note,
  };
}

function explorerCoverage(
  chainId: number,
  fetch: Awaited<ReturnType<typeof readFetch>>,
  transfersRead: number,
  req: CoverageRequest,
  failure: string | undefined,
): Coverage {
  const base = {
    chainId: String(chainId),
    source: "explorer" as const,
    block: null,
    lagBlocks: null,
    transfersRead,
  };
  if (!fetch) {
    return {
      ...base,
      current: false,
      dataFrom: null,
      dataUntil: null,
      note: failure
        ? `The explorer could not be reached (${failure}): the service holds no history of this address.`
        : "The explorer's history of this address was not fetched in time: the service holds none of it.",
    };
  }
  const until = fetch.coveredTo ?? fetch.fetchedAt;
  const fresh = req.now.getTime() - fetch.fetchedAt.getTime() <= req.limits.explorerFreshMs;
  const reaches = until.getTime() >= (req.windowEnd ?? fetch.fetchedAt).getTime();
  const current = fresh && reaches && !failure;
  const from = fetch.source ? ` from ${fetch.source}` : "";
  const note = current
    ? `History fetched${from} at ${fetch.fetchedAt.toISOString()}${fetch.truncated ? " (its oldest part beyond the explorer's caps is missing)" : ""}.`
    : failure
      ? `The explorer could not be reached (${failure}): the history held was fetched${from} at ${fetch.fetchedAt.toISOString()}, later transfers may be missing.`
      : `The history held was fetched${from} at ${fetch.fetchedAt.toISOString()}: later transfers may be missing.`;
  return { ...base, current, dataFrom: iso(fetch.coveredFrom), dataUntil: until.toISOString(), note };
}

function importCoverage(
  chainId: number,
  holding: ChainHolding,
  transfersRead: number,
  req: CoverageRequest,
): Coverage {
  const base = { chainId: String(chainId), block: null, lagBlocks: null, transfersRead };
  if (!holding.lastAt) {
    return {
      ...base,
      source: "none",
      current: false,
      dataFrom: null,
      dataUntil: null,
      note: `The service holds no data of chain ${chainId}: no indexer follows it (rpc_url), no explorer gives its histories (explorer_api_url) and nothing was imported.`,
    };
  }
  // No follower can fall behind an import: its data is the service's whole knowledge of the chain, and a verdict
  // without a window's end is one as of the import's end, which the coverage states. A window reaching past it is
  // not covered.
  const end = req.windowEnd ?? holding.lastAt;
  const current = holding.lastAt.getTime() >= end.getTime();
  return {
    ...base,
    source: "import",
    current,
    dataFrom: iso(holding.firstAt),
    dataUntil: holding.lastAt.toISOString(),
    note: current
      ? `Imported data up to ${holding.lastAt.toISOString()}, and no indexer or explorer follows the chain: the verdict is as of that time.`
      : `Imported data only up to ${holding.lastAt.toISOString()}, before the end of the window analysed, and no indexer or explorer follows the chain: later transfers are unknown.`,
  };
}

/** A followed chain's lag: the last block confirmed, the node's head, and how long the indexer has been silent. */
export interface ChainLag {
  chainId: number;
  block: string;
  head: string | null;
  lagBlocks: number | null;
  silentSeconds: number;
}

/** Each chain's lag as /readyz and /metrics show it: chains with a checkpoint only. */
export async function chainLags(db: Kysely<DB>, now: Date): Promise<ChainLag[]> {
  const { rows } = await sql<{
    chain_id: number;
    block_number: string;
    head_number: string | null;
    head_seen_at: Date | string | null;
    updated_at: Date | string;
  }>`
    SELECT chain_id, block_number::text AS block_number, head_number::text AS head_number, head_seen_at, updated_at
    FROM indexer_checkpoints ORDER BY chain_id`.execute(db);
  return rows.map((r) => {
    const block = BigInt(r.block_number);
    const head = r.head_number === null ? null : BigInt(r.head_number);
    const alive = new Date(r.head_seen_at ?? r.updated_at);
    return {
      chainId: Number(r.chain_id),
      block: block.toString(),
      head: head === null ? null : head.toString(),
      lagBlocks: head === null ? null : Number(head > block ? head - block : 0n),
      silentSeconds: Math.max(0, Math.round((now.getTime() - alive.getTime()) / 1000)),
    };
  });
}
