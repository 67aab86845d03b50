// The clusters' writes (utxo_clusters, utxo_cluster_members; migrations/0048_utxo_clusters.sql): a batch's changes
// in a few statements whatever their number. A merged cluster's row stays (the earliest stored), the rows it
// absorbed are deleted and their members re-pointed to it; new clusters take keys from the sequence. A new member
// that another writer stored meanwhile (the same transaction brought by a followed block and an Esplora page at
// once) keeps that writer's cluster: the two clusters are joined by the next transaction that names both.
import { type Kysely, sql } from "kysely";
import type { ClusterChange } from "../risk/index.ts";
import type { DB } from "../schema.ts";

export async function writeClusterChanges(
  db: Kysely<DB>,
  chainId: number,
  changes: readonly ClusterChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const fresh = changes.filter((c) => c.key === undefined);
  const { rows: keys } = fresh.length
    ? await sql<{ key: string }>`
        SELECT nextval('utxo_cluster_keys')::text AS key FROM generate_series(1, ${fresh.length})`.execute(db)
    : { rows: [] };
  const keyOf = new Map<ClusterChange, string>();
  fresh.forEach((c, i) => {
    keyOf.set(c, (keys[i] as { key: string }).key);
  });
  for (const c of changes) if (c.key !== undefined) keyOf.set(c, c.key);

  const absorbedFrom: string[] = [];
  const absorbedTo: string[] = [];
  for (const c of changes) {
    for (const gone of c.absorbed) {
      absorbedFrom.push(gone);
      absorbedTo.push(keyOf.get(c) as string);
    }
  }
  if (absorbedFrom.length > 0) {
    // Deleted before the rows that stay are written: an absorbed row's id is free again only then.
    await sql`
      DELETE FROM utxo_clusters WHERE chain_id = ${chainId} AND key = ANY(${absorbedFrom}::bigint[])`.execute(
      db,
    );
    await sql`
      UPDATE utxo_cluster_members m SET key = t.to_key
      FROM unnest(${absorbedFrom}::bigint[], ${absorbedTo}::bigint[]) AS t(from_key, to_key)
      WHERE m.chain_id = ${chainId} AND m.key = t.from_key`.execute(db);
  }
  // A cluster whose lists are the stored ones (full, usually: a big cluster that grew) has only its size written.
  const grown = changes.filter((c) => c.key !== undefined && !c.listsChanged);
  if (grown.length > 0) {
    await sql`
      UPDATE utxo_clusters c SET size = t.size, service_scale = t.service_scale, updated_at = now()
      FROM unnest(${grown.map((c) => c.key)}::bigint[], ${grown.map((c) => c.size)}::integer[],
        ${grown.map((c) => c.serviceScale)}::boolean[]) AS t(key, size, service_scale)
      WHERE c.chain_id = ${chainId} AND c.key = t.key`.execute(db);
  }
  const rows = changes
    .filter((c) => c.key === undefined || c.listsChanged)
    .map((c) => ({
      key: keyOf.get(c),
      id: c.id,
      size: c.size,
      addresses: c.addresses,
      joined_by: c.joinedBy,
      coinjoins_excluded: c.coinjoinsExcluded.map(({ txid, kind, confidence, reason }) => ({
        txid,
        kind,
        confidence,
        reason,
      })),
      service_scale: c.serviceScale,
    }));
  if (rows.length > 0)
    await sql`
    INSERT INTO utxo_clusters AS c (chain_id, key, id, size, addresses, joined_by, coinjoins_excluded, service_scale)
    SELECT ${chainId}, t.key, t.id, t.size, t.addresses, t.joined_by, t.coinjoins_excluded, t.service_scale
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS t(key bigint, id text, size integer,
      addresses text[], joined_by text[], coinjoins_excluded jsonb, service_scale boolean)
    ON CONFLICT (chain_id, key) DO UPDATE SET id = excluded.id, size = excluded.size,
      addresses = excluded.addresses, joined_by = excluded.joined_by,
      coinjoins_excluded = excluded.coinjoins_excluded, service_scale = excluded.service_scale, updated_at = now()`.execute(
      db,
    );
  const members: string[] = [];
  const memberKeys: string[] = [];
  for (const c of changes) {
    for (const address of c.newMembers) {
      members.push(address);
      memberKeys.push(keyOf.get(c) as string);
    }
  }
  if (members.length > 0) {
    await sql`
      INSERT INTO utxo_cluster_members (chain_id, address, key)
      SELECT ${chainId}, * FROM unnest(${members}::text[], ${memberKeys}::bigint[])
      ON CONFLICT (chain_id, address) DO NOTHING`.execute(db);
  }
}
