// A UTXO chain's stored address clusters (migrations/0048_utxo_clusters.sql), as src/clusters keeps them: the
// clusters of a batch's addresses, to continue them, and the cluster of one address, to answer it, or of an
// analysis's roots, to read their exposure by cluster.
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

/**
 * The stored clusters of some addresses, earliest stored first, each with those of the addresses it holds, locked
 * until the transaction ends, for the clusters' writer (src/clusters). The addresses' membership rows are locked
 * first, in key order (two writers never wait on each other in a circle): a writer that merged one of these
 * clusters meanwhile re-pointed the same rows, so once it commits they are read again with the key it left. Then the
 * clusters' rows, locked in the same order.
 */
export async function lockClustersOf(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<(StoredClusterRead & { members: string[] })[]> {
  if (addresses.length === 0) return [];
  const { rows: members } = await sql<{ address: string; key: string }>`
    SELECT address, key::text AS key FROM utxo_cluster_members
    WHERE chain_id = ${chainId} AND address = ANY(${[...new Set(addresses)]}::text[])
    ORDER BY utxo_cluster_members.key, address FOR UPDATE`.execute(db);
  if (members.length === 0) return [];
  const byKey = new Map<string, string[]>();
  for (const m of members) {
    const list = byKey.get(m.key);
    if (list) list.push(m.address);
    else byKey.set(m.key, [m.address]);
  }
  const { rows } = await sql<ClusterRow>`
    SELECT key::text AS key, id, size, addresses, joined_by, coinjoins_excluded, service_scale, updated_at
    FROM utxo_clusters WHERE chain_id = ${chainId} AND key = ANY(${[...byKey.keys()]}::bigint[])
    ORDER BY utxo_clusters.key FOR UPDATE`.execute(db);
  return rows.map((r) => ({ ...toRead(r), members: byKey.get(String(r.key)) ?? [] }));
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

/** The stored clusters of several addresses in one statement, by address (an address alone in its cluster: absent). */
export async function storedClustersOf(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<Map<string, StoredClusterRead>> {
  const out = new Map<string, StoredClusterRead>();
  if (addresses.length === 0) return out;
  const { rows } = await sql<ClusterRow & { member: string }>`
    SELECT m.address AS member, c.key, c.id, c.size, c.addresses, c.joined_by, c.coinjoins_excluded,
           c.service_scale, c.updated_at
    FROM utxo_cluster_members m JOIN utxo_clusters c ON c.chain_id = m.chain_id AND c.key = m.key
    WHERE m.chain_id = ${chainId} AND m.address IN (${sql.join([...addresses])})`.execute(db);
  for (const row of rows) out.set(row.member, toRead(row));
  return out;
}
