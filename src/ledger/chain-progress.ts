// What the indexer has written and how far it has come, read back (the indexer resumes from its checkpoint,
// compares stored block hashes to detect a reorganisation, and skips token metadata it already has).
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** The last block the indexer has confirmed on a chain. */
export interface Checkpoint {
  number: bigint;
  hash: string;
}

export async function readCheckpoint(db: Kysely<DB>, chainId: number): Promise<Checkpoint | undefined> {
  const row = await db
    .selectFrom("indexer_checkpoints")
    .select(["block_number", "block_hash"])
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return row ? { number: BigInt(row.block_number), hash: row.block_hash } : undefined;
}

/** Stored block hashes of [from, to], by number. */
export async function storedHashes(
  db: Kysely<DB>,
  chainId: number,
  from: bigint,
  to: bigint,
): Promise<Map<bigint, string>> {
  const rows = await db
    .selectFrom("blocks")
    .select(["number", "hash"])
    .where("chain_id", "=", chainId)
    .where("number", ">=", from.toString())
    .where("number", "<=", to.toString())
    .execute();
  return new Map(rows.map((r) => [BigInt(r.number), r.hash.toLowerCase()]));
}

/** The addresses among `tokens` that already have a tokens row (their metadata was read before). */
export async function knownTokens(db: Kysely<DB>, chainId: number, tokens: string[]): Promise<Set<string>> {
  if (tokens.length === 0) return new Set();
  const rows = await db
    .selectFrom("tokens")
    .select("address")
    .where("chain_id", "=", chainId)
    .where(sql<boolean>`address = ANY(${tokens}::text[])`)
    .execute();
  return new Set(rows.map((r) => r.address));
}
