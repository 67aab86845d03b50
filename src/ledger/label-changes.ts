// The log of labels that appeared or changed (migrations/0029_rescreening.sql), as the re-screening reads it: the
// next changes after a point, and one change by its id.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

export interface LabelChange {
  id: string;
  /** 0: every chain */
  chainId: number;
  address: string;
  label: string;
  category: string;
  source: string;
  changedAt: Date;
}

const fromRow = (r: {
  id: string;
  chain_id: number;
  address: string;
  label: string;
  category: string;
  source: string;
  changed_at: Date;
}): LabelChange => ({
  id: String(r.id),
  chainId: r.chain_id,
  address: r.address,
  label: r.label,
  category: r.category,
  source: r.source,
  changedAt: r.changed_at,
});

/** The changes logged after `afterId`, oldest first, at most `limit`. */
export async function labelChangesAfter(
  db: Kysely<DB>,
  afterId: string,
  limit: number,
): Promise<LabelChange[]> {
  const rows = await db
    .selectFrom("label_changes")
    .selectAll()
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(fromRow);
}

export async function labelChangesById(db: Kysely<DB>, ids: readonly string[]): Promise<LabelChange[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("label_changes")
    .selectAll()
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
  return rows.map(fromRow);
}
