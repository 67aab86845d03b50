// On which chains the store holds transfers of an address (address_facts' counts, kept by every writer of
// transfers: the indexer, the explorer cache, the imports). A registered address watched on every chain is first
// scanned on these (src/analysis/first-scans.ts).
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

/** Of `chainIds`, those where the store holds a transfer of `address` (lowercase), in ascending order. */
export async function chainsHoldingAddress(
  db: Kysely<DB>,
  address: string,
  chainIds: readonly number[],
): Promise<number[]> {
  if (chainIds.length === 0) return [];
  // One seek of the (chain_id, address) key per chain.
  const rows = await db
    .selectFrom("address_facts")
    .select("chain_id")
    .where("chain_id", "in", [...chainIds])
    .where("address", "=", address)
    .where((eb) => eb.or([eb("transfers_in", ">", "0"), eb("transfers_out", ">", "0")]))
    .orderBy("chain_id")
    .execute();
  return rows.map((r) => Number(r.chain_id));
}
