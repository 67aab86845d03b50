// A UTXO chain's stored address clusters (migrations/0048_utxo_clusters.sql), as src/clusters keeps them: the
// clusters of a batch's addresses, to continue them, and the cluster of one address, to answer it.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import type { ExcludedCoinJoinRow } from "./tables.ts";

export interface StoredClusterRead {
  key: string;
  id: string;
  size: number;
  addresses: string[];
  joinedBy: string[];
  coinjoinsExcluded: ExcludedCoinJoinRow[];
  serviceScale: boolean;
  updatedAt: Date;
}

interface ClusterRow {
  key: string;
  id: string;
  size: number;
  addresses: string[];
  joined_by: string[];
  coinjoins_excluded: ExcludedCoinJoinRow[] | string;
  service_scale: boolean;
  updated_at: Date | string;
}

const toRead = (r: ClusterRow): StoredClusterRead => ({
  key: String(r.key),
  id: r.id,
  size: r.size,
  addresses: r.addresses,
  joinedBy: r.joined_by,
  coinjoinsExcluded:
    typeof r.coinjoins_excluded === "string" ? JSON.parse(r.coinjoins_excluded) : r.coinjoins_excluded,
  serviceScale: r.service_scale,
  updatedAt: new Date(r.updated_at),
});

/** The stored clusters of some addresses, earliest stored first, each with those of the addresses it holds. */
export async function storedClustersOf(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<(StoredClusterRead & { members: string[] })[]> {
  if (addresses.length === 0) return [];
  const { rows } = await sql<ClusterRow & { members: string[] }>`
    SELECT c.key, c.id, c.size, c.addresses, c.joined_by, c.coinjoins_excluded, c.service_scale, c.updated_at,
      m.members
    FROM (SELECT key, array_agg(address) AS members FROM utxo_cluster_members
          WHERE chain_id = ${chainId} AND address = ANY(${[...new Set(addresses)]}::text[]) GROUP BY key) m
    JOIN utxo_clusters c ON c.chain_id = ${chainId} AND c.key = m.key
    ORDER BY c.key`.execute(db);
  return rows.map((r) => ({ ...toRead(r), members: r.members }));
}

/** The stored cluster of one address, or undefined when it is alone in its cluster (or unknown). */
export async function storedClusterOf(
  db: Kysely<DB>,
  chainId: number,
  address: string,
): Promise<StoredClusterRead | undefined> {
  const { rows } = await sql<ClusterRow>`
    SELECT c.key, c.id, c.size, c.addresses, c.joined_by, c.coinjoins_excluded, c.service_scale, c.updated_at
    FROM utxo_cluster_members m JOIN utxo_clusters c ON c.chain_id = m.chain_id AND c.key = m.key
    WHERE m.chain_id = ${chainId} AND m.address = ${address}`.execute(db);
  const row = rows[0];
  return row ? toRead(row) : undefined;
}
