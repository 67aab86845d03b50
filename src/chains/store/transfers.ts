// Writes to the chain data store shared by the indexer, the explorer cache and the imports: blocks, transfers,
// tokens and address facts. Every write is idempotent (a row already there is left alone), so replaying a batch
// after a crash changes nothing.
import { type Kysely, sql } from "kysely";
import { markedContract, tokenHeldComplete } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";

export interface TransferRow {
  chainId: number;
  txHash: string;
  /** -1 for the native value of a transaction */
  logIndex: number;
  blockNumber: bigint;
  blockTime: Date;
  from: string;
  to: string;
  /** 'native' or the token contract address */
  token: string;
  value: bigint;
}

export interface BlockRow {
  chainId: number;
  number: bigint;
  hash: string;
  parentHash: string | null;
  timestamp: Date;
}

export interface TokenRow {
  chainId: number;
  address: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

/**
 * Inserts transfers and keeps their ends' address facts, in one statement per batch; returns how many were new.
 * Only the transfers actually inserted count in `transfers_out` / `transfers_in` (a replayed batch changes
 * nothing), and `first_seen_*` stays at each address's earliest transfer. Block times never decrease with the
 * block number, so the earliest time is the earliest block's. Addresses are upserted in order, so that concurrent
 * writers lock the same rows in the same order and never deadlock.
 */
export async function insertTransfers(db: Kysely<DB>, rows: TransferRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const { rows: result } = await sql<{ inserted: string }>`
    WITH inserted AS (
      INSERT INTO transfers (chain_id, tx_hash, log_index, block_number, block_time, from_address, to_address, token, value)
      SELECT * FROM unnest(
        ${rows.map((r) => r.chainId)}::integer[],
        ${rows.map((r) => r.txHash)}::text[],
        ${rows.map((r) => r.logIndex)}::integer[],
        ${rows.map((r) => r.blockNumber.toString())}::bigint[],
        ${rows.map((r) => r.blockTime.toISOString())}::timestamptz[],
        ${rows.map((r) => r.from)}::text[],
        ${rows.map((r) => r.to)}::text[],
        ${rows.map((r) => r.token)}::text[],
        ${rows.map((r) => r.value.toString())}::numeric[]
      )
      ON CONFLICT DO NOTHING
      RETURNING chain_id, from_address, to_address, block_number, block_time
    ),
    facts AS (
      INSERT INTO address_facts AS f (chain_id, address, first_seen_block, first_seen_at, transfers_out, transfers_in)
      SELECT chain_id, address, min(block_number), min(block_time), sum(sent), sum(received) FROM (
        SELECT chain_id, from_address AS address, block_number, block_time, 1 AS sent, 0 AS received FROM inserted
        UNION ALL
        SELECT chain_id, to_address, block_number, block_time, 0, 1 FROM inserted
      ) sides
      GROUP BY chain_id, address
      ORDER BY chain_id, address
      ON CONFLICT (chain_id, address) DO UPDATE SET
        first_seen_block = LEAST(f.first_seen_block, excluded.first_seen_block),
        first_seen_at = LEAST(f.first_seen_at, excluded.first_seen_at),
        transfers_out = f.transfers_out + excluded.transfers_out,
        transfers_in = f.transfers_in + excluded.transfers_in
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM inserted)::text AS inserted, (SELECT count(*) FROM facts) AS facts`.execute(
    db,
  );
  return Number(result[0]?.inserted ?? 0);
}

/**
 * Deletes a chain's transfers above a block (a reorg unwind) and takes them back from their ends' transfer counts,
 * in one statement; returns the ends of the deleted transfers.
 */
export async function deleteTransfersAbove(
  db: Kysely<DB>,
  chainId: number,
  aboveBlock: bigint,
): Promise<{ from: string; to: string }[]> {
  const { rows } = await sql<{ from: string; to: string }>`
    WITH deleted AS (
      DELETE FROM transfers WHERE chain_id = ${chainId} AND block_number > ${aboveBlock.toString()}
      RETURNING from_address, to_address
    ),
    counts AS (
      SELECT address, sum(sent) AS sent, sum(received) AS received FROM (
        SELECT from_address AS address, 1 AS sent, 0 AS received FROM deleted
        UNION ALL
        SELECT to_address, 0, 1 FROM deleted
      ) sides
      GROUP BY address
    ),
    taken AS (
      UPDATE address_facts f SET transfers_out = f.transfers_out - c.sent, transfers_in = f.transfers_in - c.received
      FROM counts c WHERE f.chain_id = ${chainId} AND f.address = c.address
      RETURNING 1
    )
    SELECT from_address AS from, to_address AS to FROM deleted`.execute(db);
  return rows;
}

export async function insertBlocks(db: Kysely<DB>, rows: BlockRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO blocks (chain_id, number, hash, parent_hash, timestamp)
    SELECT * FROM unnest(
      ${rows.map((r) => r.chainId)}::integer[],
      ${rows.map((r) => r.number.toString())}::bigint[],
      ${rows.map((r) => r.hash)}::text[],
      ${rows.map((r) => r.parentHash)}::text[],
      ${rows.map((r) => r.timestamp.toISOString())}::timestamptz[]
    )
    ON CONFLICT (chain_id, number) DO UPDATE SET hash = excluded.hash, parent_hash = excluded.parent_hash,
      timestamp = excluded.timestamp`.execute(db);
}

/** Token metadata is read once; a later non-null value fills a gap but never overwrites a known one. */
export async function upsertTokens(db: Kysely<DB>, rows: TokenRow[]): Promise<void> {
  if (rows.length === 0) return;
  // Only the tokens the store lacks, or holds with a field this row could fill: a conflicting row is locked until
  // the writer's transaction ends, and every page of every history names the same few tokens, so that locking them
  // all made concurrent explorer fetches on PostgreSQL wait for each other (seconds a check).
  await sql`
    INSERT INTO tokens (chain_id, address, symbol, name, decimals)
    SELECT * FROM unnest(
      ${rows.map((r) => r.chainId)}::integer[],
      ${rows.map((r) => r.address)}::text[],
      ${rows.map((r) => r.symbol)}::text[],
      ${rows.map((r) => r.name)}::text[],
      ${rows.map((r) => r.decimals)}::integer[]
    ) AS n(chain_id, address, symbol, name, decimals)
    WHERE NOT ${tokenHeldComplete("n")}
    ON CONFLICT (chain_id, address) DO UPDATE SET
      symbol = COALESCE(tokens.symbol, excluded.symbol),
      name = COALESCE(tokens.name, excluded.name),
      decimals = COALESCE(tokens.decimals, excluded.decimals)`.execute(db);
}

export async function markContracts(db: Kysely<DB>, chainId: number, addresses: string[]): Promise<void> {
  if (addresses.length === 0) return;
  const unique = [...new Set(addresses)].sort();
  // Not the ones already marked: a conflicting row stays locked until the writer's transaction ends (upsertTokens).
  await sql`
    INSERT INTO address_facts (chain_id, address, is_contract)
    SELECT ${chainId}, a, true FROM unnest(${unique}::text[]) AS a
    WHERE NOT ${markedContract(chainId, sql`a`)}
    ON CONFLICT (chain_id, address) DO UPDATE SET is_contract = true`.execute(db);
}
