// Writes to the chain data store shared by the indexer, the explorer cache and the imports: blocks, transfers,
// tokens and address facts. Every write is idempotent (a row already there is left alone), so replaying a batch
// after a crash changes nothing.
import { type Kysely, sql } from "kysely";
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

/** Inserts transfers (one statement per batch); returns how many were new. */
export async function insertTransfers(db: Kysely<DB>, rows: TransferRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await sql`
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
    ON CONFLICT DO NOTHING`.execute(db);
  await recordFirstSeen(db, rows);
  return Number(result.numAffectedRows ?? 0n);
}

/** Keeps `address_facts.first_seen_*` at the earliest transfer seen for each address. */
async function recordFirstSeen(db: Kysely<DB>, rows: TransferRow[]): Promise<void> {
  const earliest = new Map<string, { chainId: number; address: string; block: bigint; at: Date }>();
  for (const r of rows) {
    for (const address of [r.from, r.to]) {
      const key = `${r.chainId}:${address}`;
      const seen = earliest.get(key);
      if (!seen || r.blockNumber < seen.block) {
        earliest.set(key, { chainId: r.chainId, address, block: r.blockNumber, at: r.blockTime });
      }
    }
  }
  const facts = [...earliest.values()].sort(
    (a, b) => a.chainId - b.chainId || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0),
  );
  await sql`
    INSERT INTO address_facts (chain_id, address, first_seen_block, first_seen_at)
    SELECT * FROM unnest(
      ${facts.map((f) => f.chainId)}::integer[],
      ${facts.map((f) => f.address)}::text[],
      ${facts.map((f) => f.block.toString())}::bigint[],
      ${facts.map((f) => f.at.toISOString())}::timestamptz[]
    )
    ON CONFLICT (chain_id, address) DO UPDATE SET
      first_seen_block = LEAST(address_facts.first_seen_block, excluded.first_seen_block),
      first_seen_at = LEAST(address_facts.first_seen_at, excluded.first_seen_at)
    WHERE address_facts.first_seen_block IS NULL OR excluded.first_seen_block < address_facts.first_seen_block`.execute(
    db,
  );
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
  await sql`
    INSERT INTO tokens (chain_id, address, symbol, name, decimals)
    SELECT * FROM unnest(
      ${rows.map((r) => r.chainId)}::integer[],
      ${rows.map((r) => r.address)}::text[],
      ${rows.map((r) => r.symbol)}::text[],
      ${rows.map((r) => r.name)}::text[],
      ${rows.map((r) => r.decimals)}::integer[]
    )
    ON CONFLICT (chain_id, address) DO UPDATE SET
      symbol = COALESCE(tokens.symbol, excluded.symbol),
      name = COALESCE(tokens.name, excluded.name),
      decimals = COALESCE(tokens.decimals, excluded.decimals)`.execute(db);
}

export async function markContracts(db: Kysely<DB>, chainId: number, addresses: string[]): Promise<void> {
  if (addresses.length === 0) return;
  const unique = [...new Set(addresses)].sort();
  await sql`
    INSERT INTO address_facts (chain_id, address, is_contract)
    SELECT ${chainId}, a, true FROM unnest(${unique}::text[]) AS a
    ON CONFLICT (chain_id, address) DO UPDATE SET is_contract = true`.execute(db);
}
