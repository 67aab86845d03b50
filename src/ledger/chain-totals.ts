// How much of a chain the ledger holds: its highest stored block, its distinct transactions and the addresses it
// has facts of (the network statistics of an indexed chain, src/chains/indexer/index-stats.ts).
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

export interface HeldTotals {
  maxBlock: bigint | null;
  /** decimal */
  transactions: string;
  /** decimal */
  addresses: string;
}

/** undefined when the ledger holds nothing of the chain. */
export async function heldTotals(db: Kysely<DB>, chainId: number): Promise<HeldTotals | undefined> {
  const { rows } = await sql<{ max_block: string | null; transactions: string; addresses: string }>`
    SELECT
      (SELECT max(number) FROM blocks WHERE chain_id = ${chainId})::text AS max_block,
      (SELECT count(*) FROM (SELECT DISTINCT tx_hash FROM transfers WHERE chain_id = ${chainId}) t)::text
        AS transactions,
      (SELECT count(*) FROM address_facts WHERE chain_id = ${chainId})::text AS addresses`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  if (row.max_block === null && row.transactions === "0" && row.addresses === "0") return undefined;
  return {
    maxBlock: row.max_block === null ? null : BigInt(row.max_block),
    transactions: row.transactions,
    addresses: row.addresses,
  };
}

/** How many transfers the store holds of a chain (the demo waits for its scenario's). */
export async function transfersOn(db: Kysely<DB>, chainId: number): Promise<number> {
  const row = await db
    .selectFrom("transfers")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
