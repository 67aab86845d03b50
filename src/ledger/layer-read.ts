// The graph expansion's reads from the ledger (src/analysis/graph). One statement per BFS layer: the transfers of every frontier
// address (each direction read through its own index, newest first, capped per address), their token metadata
// and daily price, and the facts and strongest label of every counterparty. Never recursive SQL.
//
// Built for layers of 10,000s of rows (a 50-address scan at depth 3 reads ~100,000), where the cost is per row
// and per counterparty, on the server and in the client alike:
// - the rows carry what the layer needs and no more: the frontier address as its position in the frontier, the
//   direction as a boolean, the counterparty once (not from, to and counterparty), times as epoch seconds;
// - the counterparties' facts and labels are looked up once per distinct address, by one index scan over the
//   sorted array of them (`= ANY`), not by a probe per row nor by hashing the whole labels table;
// - the frontier's size is hidden from the planner (an InitPlan instead of a constant array): with it, a layer
//   of thousands of addresses is costed above `jit_above_cost` and PostgreSQL spends 0.1-0.5 s compiling the
//   statement with LLVM before running it for less than that. The plan's shape is fixed by the statement
//   (per-address index scans under LATERAL ... LIMIT), so the estimate changes nothing else that matters;
// - both statements are prepared once (per connection on PostgreSQL, per instance on PGlite: platform/db): for an
//   address with a few transfers, planning them cost more than running them;
// - given a ReadCoalescing (the service passes one in the analysis context), concurrent reads of one address
//   each (quick checks) share statements once the database is busy, or on PGlite those of one event-loop turn
//   (platform/coalesce.ts): the statement per layer is kept, several callers' layers ride in it. Each frontier address's rows are read independently (per-address LATERAL), so a layer read
//   with others is the same as read alone.
import { type Kysely, type RawBuilder, sql } from "kysely";
import { Coalescer } from "../platform/coalesce.ts";
import { PREPARED } from "../platform/db/prepared.ts";
import { CATEGORY_ORDER } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { AddressFacts } from "./address-facts.ts";

export interface Window {
  /** unix seconds, inclusive */
  from?: number | undefined;
  /** unix seconds, inclusive */
  to?: number | undefined;
}

/**
 * One transfer of a layer as the statement returns it (kept as the driver gives it: the layer turns only the rows
 * it keeps into graph edges). A transfer between two frontier addresses (or to itself) comes back once per side.
 */
export interface LayerRow {
  /** position (from 1) of the frontier address this row was read for, in the frontier readLayer was given */
  i: number;
  /** true: the frontier address sent it (`from`), the counterparty received it */
  out: boolean;
  tx_hash: string;
  log_index: number;
  /** decimal */
  block_number: string;
  /** unix seconds, decimal */
  at: string;
  /** the other end of the transfer, seen from the frontier address (itself for a self-transfer) */
  cp: string;
  token: string;
  /** decimal, in the token's smallest unit */
  value: string;
  symbol: string | null;
  decimals: number | null;
  /** decimal */
  price_usd: string | null;
  /** the counterparty's facts (the same on each of its rows) */
  cp_known: boolean;
  cp_is_contract: boolean;
  /** unix seconds, decimal */
  cp_first_seen_at: string | null;
  cp_label: string | null;
  cp_category: string | null;
  /** the label is an inferred exchange deposit address's (src/attribution), not a stored one */
  cp_inferred: boolean | null;
  /** the counterparty's transfers in the store, sent and received (address_facts; 0 when unknown) */
  cp_transfers: number;
  /** the counterparty has bridge legs on the chain (address_facts.bridged) */
  cp_bridged: boolean;
  /**
   * whether the transfer's transaction has other transfers: known only where the counterparty is a contract, a
   * defi address, or unlabelled, busy (LayerRead.probeTransfers) and paid the frontier a token (null elsewhere),
   * so that the expansion reads whole only the swaps among them (conversion reads)
   */
  tx_more: boolean | null;
}

/** LayerRow's fields in the order of the layer statement's columns (the JSON form gives each row as an array). */
const LAYER_FIELDS = [
  "i",
  "out",
  "tx_hash",
  "log_index",
  "block_number",
  "at",
  "cp",
  "token",
  "value",
  "symbol",
  "decimals",
  "price_usd",
  "cp_known",
  "cp_is_contract",
  "cp_first_seen_at",
  "cp_label",
  "cp_category",
  "cp_inferred",
  "cp_transfers",
  "cp_bridged",
  "tx_more",
] as const satisfies readonly (keyof LayerRow)[];

/** What one layer statement reads. */
export interface LayerRead {
  chainId: number;
  /** the addresses to expand (duplicates are ignored) */
  frontier: string[];
  window: Window;
  /** transfers per frontier address and direction at most, the newest (with those tied with the last) */
  cap: number;
  /**
   * rows of the whole statement at most: a hard bound on what one layer holds in memory, whatever the frontier
   * and the ties at the cut. Which rows a cut leaves out depends on the plan, so the layer treats a statement that
   * reaches it as a spent budget (layer.ts). Default: no limit beyond the caps.
   */
  rowLimit?: number | undefined;
  /**
   * `tx_more` is also asked of unlabelled counterparties with at least this many transfers (a DEX pool the store
   * does not know as a contract is busy); default: of contracts and defi addresses only
   */
  probeTransfers?: number | undefined;
}

export interface Layer {
  /** the frontier addresses, deduplicated; LayerRow.i - 1 indexes it */
  frontier: string[];
  rows: LayerRow[];
}

interface RawFactsRow {
  address: string;
  known: boolean;
  is_contract: boolean;
  /** unix seconds */
  first_seen_at: string | number | null;
  label: string | null;
  category: string | null;
  inferred: boolean | null;
  transfers: number;
  bridged: boolean;
}

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/** Whole unix seconds of a timestamptz (date_part: float8, much cheaper per row than extract's numeric). */
const epoch = (column: RawBuilder<unknown>) => sql`floor(date_part('epoch', ${column}))::bigint`;

/**
 * `fa` and `lb` over the addresses of the array `cps`: the address_facts row of each known address, and its
 * strongest label on this chain (chain-specific or chain 0), the riskiest category first (CATEGORY_ORDER), then
 * the highest confidence, the chain-specific label, label text, source. An address no label names but that is an
 * inferred exchange deposit address (deposit_addresses, src/attribution) gets the label "<exchange>: deposit
 * address (inferred)", category exchange, `inferred`: a stored label always wins. Each reads its index once, in
 * address order, for the whole array.
 */
export function factsCtes(chainId: number, cps: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`fa AS (
      SELECT f.address, f.is_contract, f.first_seen_at,
        LEAST(f.transfers_out + f.transfers_in, 2147483647)::int AS transfers, f.bridged
      FROM address_facts f
      WHERE f.chain_id = ${chainId} AND f.address = ANY(${cps})
    ),
    lb AS (
      SELECT DISTINCT ON (s.address) s.address, s.label, s.category, s.inferred FROM (
        SELECT l.address, l.label, l.category, false AS inferred,
          COALESCE(array_position(${[...CATEGORY_ORDER]}::text[], l.category), 1000) AS rank,
          l.confidence, (l.chain_id <> 0) AS own_chain, l.source
        FROM labels l
        WHERE l.address = ANY(${cps}) AND l.chain_id IN (0, ${chainId})
        UNION ALL
        SELECT d.address, d.exchange || ': deposit address (inferred)', 'exchange', true, 0, d.confidence, true, ''
        FROM deposit_addresses d
        WHERE d.chain_id = ${chainId} AND d.address = ANY(${cps}) AND d.attributed
      ) s
      ORDER BY s.address, s.inferred, s.rank, s.confidence DESC, s.own_chain DESC, s.label, s.source
    )`;
}

export function toFacts(row: {
  known: boolean;
  is_contract: boolean;
  first_seen_at: string | number | null;
  label: string | null;
  category: string | null;
  inferred: boolean | null;
  transfers: number;
  bridged?: boolean | null;
}): AddressFacts {
  return {
    known: row.known,
    isContract: row.is_contract,
    firstSeenAt: row.first_seen_at === null ? undefined : Number(row.first_seen_at),
    label: row.label ?? undefined,
    category: row.category ?? undefined,
    inferred: row.inferred === true,
    transfers: row.transfers,
    bridged: row.bridged === true,
  };
}

/** Addresses per coalesced statement at most: past ~8-16, batching gains little more (bench, PGlite). */
export const COALESCED_BATCH = 16;

/**
 * Lets concurrent single-address reads of one database share statements once `inFlight` statements of a kind are
 * running: about what the database can run at once (the service passes 1 for the embedded PGlite; on PostgreSQL
 * the pool's size, but no more than the machine's cores). `sameThread`: the database runs its statements on this
 * thread (PGlite), so reads are gathered per event-loop turn (src/platform/coalesce.ts `gatherTurn`). One per
 * database handle: reads passed the same instance must read the same database.
 */
export class ReadCoalescing {
  /** by kind of read: facts by chain; layers by chain, window and cap (only reads that agree share a statement) */
  readonly #byKind = new Map<string, Coalescer<string, unknown>>();

  constructor(
    private readonly inFlight: number,
    private readonly sameThread = false,
  ) {}

  /** The coalescer of one kind of read. Dropped when idle: windows and caps vary, and one kept for each would pile up. */
  coalescerFor<V>(
    kind: string,
    load: (addresses: string[]) => Promise<Map<string, V>>,
    missing: () => V,
  ): Coalescer<string, V> {
    let coalescer = this.#byKind.get(kind) as Coalescer<string, V> | undefined;
    if (!coalescer) {
      coalescer = new Coalescer(load, missing, {
        inFlight: this.inFlight,
        maxBatch: COALESCED_BATCH,
        gatherTurn: this.sameThread,
        onIdle: () => this.#byKind.delete(kind),
      });
      this.#byKind.set(kind, coalescer as Coalescer<string, unknown>);
    }
    return coalescer;
  }
}

/** The facts of an address the store has never seen. */
export const UNKNOWN_FACTS: AddressFacts = Object.freeze({
  known: false,
  isContract: false,
  firstSeenAt: undefined,
  label: undefined,
  category: undefined,
  inferred: false,
  transfers: 0,
  bridged: false,
});

/** Layer rows of several frontier addresses in one statement, each address's rows as if read alone. */
async function layerRowsByAddress(
  db: Kysely<DB>,
  read: LayerRead,
  asJson: boolean,
): Promise<Map<string, LayerRow[]>> {
  const { frontier } = read;
  const rows = await layerRows(db, read, asJson);
  const byAddress = new Map<string, LayerRow[]>();
  for (const row of rows) {
    const address = frontier[row.i - 1] as string;
    row.i = 1; // as if read alone
    const list = byAddress.get(address);
    if (list) list.push(row);
    else byAddress.set(address, [row]);
  }
  return byAddress;
}

/** Facts and strongest label of some addresses (the roots), in one statement. */
export async function readAddressFacts(
  db: Kysely<DB>,
  chainId: number,
  addresses: string[],
  coalescing?: ReadCoalescing,
): Promise<Map<string, AddressFacts>> {
  if (addresses.length === 0) return new Map();
  const unique = [...new Set(addresses)];
  const coalescer =
    unique.length === 1
      ? coalescing?.coalescerFor(
          `facts:${chainId}`,
          (a) => queryAddressFacts(db, chainId, a),
          () => UNKNOWN_FACTS,
        )
      : undefined;
  if (coalescer) {
    const address = unique[0] as string;
    return new Map([[address, await coalescer.get(address)]]);
  }
  return queryAddressFacts(db, chainId, unique);
}

async function queryAddressFacts(
  db: Kysely<DB>,
  chainId: number,
  unique: string[],
): Promise<Map<string, AddressFacts>> {
  const { rows } = await sql<RawFactsRow>`${sql.raw(PREPARED)}
    WITH ${factsCtes(chainId, sql`${unique}::text[]`)}
    SELECT a.address, fa.address IS NOT NULL AS known, COALESCE(fa.is_contract, false) AS is_contract,
      ${epoch(sql`fa.first_seen_at`)} AS first_seen_at, lb.label, lb.category, lb.inferred,
      COALESCE(fa.transfers, 0) AS transfers, COALESCE(fa.bridged, false) AS bridged
    FROM unnest(${unique}::text[]) a(address)
    LEFT JOIN fa ON fa.address = a.address
    LEFT JOIN lb ON lb.address = a.address`.execute(db);
  return new Map(rows.map((row) => [row.address, toFacts(row)]));
}

/**
 * One BFS layer: every transfer of the frontier addresses in the window (per address and direction the newest
 * `cap`, and those at the same time as the last of them, so that the cut is deterministic), with the token's symbol
 * and decimals, the USD price of the token on the transfer's UTC day, and the counterparty's facts and label.
 */
export async function readLayer(
  db: Kysely<DB>,
  read: LayerRead,
  how: {
    /** shares statements between concurrent single-address reads (none: the read runs alone) */
    coalescing?: ReadCoalescing | undefined;
    /** have the engine return the rows as one JSON text (faster on PGlite; docs/decisions/0018) */
    asJson?: boolean;
  } = {},
): Promise<Layer> {
  const unique = [...new Set(read.frontier)];
  if (unique.length === 0) return { frontier: unique, rows: [] };
  const { chainId, window, cap, rowLimit, probeTransfers } = read;
  const kind = `layer:${chainId}:${window.from ?? ""}:${window.to ?? ""}:${cap}:${probeTransfers ?? ""}`;
  // A single address's rows are bounded by its cap: coalesced reads need no row limit of their own.
  const coalescer =
    unique.length === 1
      ? how.coalescing?.coalescerFor(
          kind,
          (f) =>
            layerRowsByAddress(
              db,
              { chainId, frontier: f, window, cap, probeTransfers },
              how.asJson === true,
            ),
          () => [] as LayerRow[],
        )
      : undefined;
  if (coalescer) return { frontier: unique, rows: await coalescer.get(unique[0] as string) };
  const rows = await layerRows(
    db,
    { chainId, frontier: unique, window, cap, rowLimit, probeTransfers },
    how.asJson === true,
  );
  return { frontier: unique, rows };
}

/** Runs the layer statement for a deduplicated frontier, as plain rows or as one JSON text. */
async function layerRows(db: Kysely<DB>, read: LayerRead, asJson: boolean): Promise<LayerRow[]> {
  if (!asJson) return (await layerQuery(read).execute(db)).rows;
  const { rows } = await layerJsonQuery(read).execute(db);
  const arrays = JSON.parse(rows[0]?.j ?? "null") as unknown[][] | null;
  return (arrays ?? []).map(rowOf);
}

function rowOf(values: unknown[]): LayerRow {
  const row: Record<string, unknown> = {};
  for (let k = 0; k < LAYER_FIELDS.length; k++) row[LAYER_FIELDS[k] as string] = values[k];
  return row as unknown as LayerRow;
}

/**
 * The layer statement with its rows as one JSON text of arrays (LAYER_FIELDS order). PGlite decodes a result row
 * by row in JavaScript, at about 14 µs a row of this statement; one text that V8's JSON parser reads costs about
 * half (docs/decisions/0018). node-postgres decodes rows fast enough that PostgreSQL keeps the plain form.
 */
export function layerJsonQuery(read: LayerRead) {
  return sql<{ j: string | null }>`${sql.raw(PREPARED)}SELECT json_agg(json_build_array(${sql.join(
    LAYER_FIELDS.map((f) => sql.ref(`l.${f}`)),
  )}))::text AS j FROM (${layerQuery(read)}) l`;
}

/** The statement of readLayer, for a deduplicated frontier (exported for EXPLAIN in benchmarks). */
export function layerQuery(read: LayerRead): RawBuilder<LayerRow> {
  const { chainId, frontier, window, cap, rowLimit, probeTransfers } = read;
  // Unlabelled busy counterparties are asked too, of the tokens they paid the frontier (a pool paying a swap's
  // recipient), when the caller says from how many transfers (a literal: one value per configuration, like the
  // limit below). Not of payments to them: every payment to a merchant would be asked, and a swap's payer pays the
  // router, which is asked already.
  const busyProbe =
    probeTransfers === undefined
      ? sql``
      : sql` OR (NOT x.out AND x.token <> 'native' AND lb.label IS NULL AND fa.transfers >= ${sql.lit(Math.floor(probeTransfers))})`;
  // The limit is on the transfers read, before the facts of their counterparties are looked up. It is written
  // into the text, not passed as a parameter: the statement is prepared, and after five runs PostgreSQL may plan
  // it once for any parameters; with the limit unknown, that generic plan took a wide layer from 0.7 s to 32 s
  // (bench/expansion.ts, docs/decisions/0019). The limit is one value per configuration, so one text.
  const limit = rowLimit === undefined ? sql`` : sql`LIMIT ${sql.lit(Math.floor(rowLimit))}`;
  const from = window.from !== undefined ? sql`AND t.block_time >= ${iso(window.from)}::timestamptz` : sql``;
  const to = window.to !== undefined ? sql`AND t.block_time <= ${iso(window.to)}::timestamptz` : sql``;
  const columns = sql`t.tx_hash, t.log_index, t.block_number, t.block_time, t.token, t.value`;
  // In the index's order (no sort: a hub's scan stops after `cap` rows), with the rows tied with the last one, so
  // that where the cut falls does not depend on the plan.
  const order = sql`ORDER BY t.block_time DESC FETCH FIRST (${cap}::bigint) ROWS WITH TIES`;
  return sql<LayerRow>`${sql.raw(PREPARED)}
    WITH f(address, i) AS (SELECT * FROM unnest((SELECT ${frontier}::text[])) WITH ORDINALITY),
    x AS MATERIALIZED (
      SELECT f.i::int AS i, y.* FROM f CROSS JOIN LATERAL (
        (SELECT true AS out, ${columns}, t.to_address AS cp FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.from_address = f.address ${from} ${to} ${order})
        UNION ALL
        (SELECT false AS out, ${columns}, t.from_address AS cp FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.to_address = f.address ${from} ${to} ${order})
      ) y
      ${limit}
    ),
    cps(a) AS MATERIALIZED (SELECT ARRAY(SELECT DISTINCT cp FROM x)),
    ${factsCtes(chainId, sql`(SELECT a FROM cps)::text[]`)}
    SELECT x.i, x.out, x.tx_hash, x.log_index, x.block_number::text AS block_number,
      ${epoch(sql`x.block_time`)}::text AS at, x.cp, x.token, x.value::text AS value,
      tk.symbol, tk.decimals, COALESCE(p.price_usd, tk.pegged_usd)::text AS price_usd,
      fa.address IS NOT NULL AS cp_known, COALESCE(fa.is_contract, false) AS cp_is_contract,
      ${epoch(sql`fa.first_seen_at`)}::text AS cp_first_seen_at, lb.label AS cp_label, lb.category AS cp_category,
      lb.inferred AS cp_inferred, COALESCE(fa.transfers, 0) AS cp_transfers,
      COALESCE(fa.bridged, false) AS cp_bridged,
      CASE WHEN fa.is_contract OR lb.category = 'defi'${busyProbe} THEN EXISTS (
        SELECT 1 FROM transfers s
        WHERE s.chain_id = ${chainId} AND s.tx_hash = x.tx_hash AND s.log_index <> x.log_index
      ) END AS tx_more
    FROM x
    LEFT JOIN fa ON fa.address = x.cp
    LEFT JOIN lb ON lb.address = x.cp
    LEFT JOIN tokens tk ON tk.chain_id = ${chainId} AND tk.address = x.token
    LEFT JOIN prices p ON p.chain_id = ${chainId} AND p.token = x.token
      AND p.day = (x.block_time AT TIME ZONE 'UTC')::date`;
}
