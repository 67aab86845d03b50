// The invariant every writer of transfers keeps (migrations/0017): each address's transfers_out / transfers_in in
// address_facts are the counts of its transfers in the store. Tests of the writers (imports, the indexer and its
// reorg unwind, explorer histories) check it after their work.
import { type Kysely, sql } from "kysely";
import type { DB } from "../../src/schema.ts";

export interface CountMismatch {
  chain_id: number;
  address: string;
  stored_out: string | null;
  stored_in: string | null;
  actual_out: string | null;
  actual_in: string | null;
}

/** Addresses whose stored counts differ from their transfers (none when the writers kept them); at most 20. */
export async function transferCountMismatches(db: Kysely<DB>): Promise<CountMismatch[]> {
  const { rows } = await sql<CountMismatch>`
    WITH actual AS (
      SELECT chain_id, address, sum(sent)::text AS actual_out, sum(received)::text AS actual_in FROM (
        SELECT chain_id, from_address AS address, 1 AS sent, 0 AS received FROM transfers
        UNION ALL SELECT chain_id, to_address, 0, 1 FROM transfers
      ) sides GROUP BY chain_id, address
    )
    SELECT COALESCE(f.chain_id, a.chain_id) AS chain_id, COALESCE(f.address, a.address) AS address,
      f.transfers_out::text AS stored_out, f.transfers_in::text AS stored_in, a.actual_out, a.actual_in
    FROM address_facts f FULL JOIN actual a ON a.chain_id = f.chain_id AND a.address = f.address
    WHERE COALESCE(f.transfers_out, -1)::text IS DISTINCT FROM COALESCE(a.actual_out, '0')
       OR COALESCE(f.transfers_in, -1)::text IS DISTINCT FROM COALESCE(a.actual_in, '0')
    ORDER BY 1, 2 LIMIT 20`.execute(db);
  return rows;
}
