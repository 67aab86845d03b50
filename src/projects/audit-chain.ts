// The audit log as a hash chain (docs/operations.md, "The audit log"). Each project's entries, and the service's own
// (no project), form one chain in id order: an entry's hash covers its contents and the hash of the entry before it,
// so an entry changed, removed or slipped in afterwards breaks the link after it, and `vigia audit verify` names the
// first broken one. One chain per project rather than one for all: writers of different projects never wait for
// each other, and a project's chain is whole on its own.
import crypto from "node:crypto";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { capLock } from "../platform/db/advisory.ts";
import type { DB } from "../schema.ts";

/** The fields an entry's hash covers, as stored. */
export interface ChainedFields {
  id: string;
  project_id: number | null;
  actor: string;
  action: string;
  target: string | null;
  details: unknown;
  created_at: Date;
  prev_hash: string | null;
}

/** JSON with object keys sorted at every level, so that a value read back from jsonb hashes as it was written. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    const parts = keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** sha256, hex, of the entry's fields and the hash before it. */
export function entryHash(e: ChainedFields): string {
  const covered = [
    e.prev_hash ?? "",
    e.id,
    e.project_id,
    e.actor,
    e.action,
    e.target,
    e.details,
    e.created_at.toISOString(),
  ];
  return crypto.createHash("sha256").update(canonicalJson(covered)).digest("hex");
}

export const CHAINED = [
  "id",
  "project_id",
  "actor",
  "action",
  "target",
  "details",
  "created_at",
  "prev_hash",
  "hash",
] as const;

/** The chain of a project's entries, or of the service's own (no project). */
export const chainOf = (projectId: number | null) => (eb: ExpressionBuilder<DB, "audit_log">) =>
  projectId === null ? eb("project_id", "is", null) : eb("project_id", "=", projectId);

/**
 * The hash the chain's next entry links to: its last linked entry's. A chain with none yet links its entries
 * first, in id order: they were written before the chain existed (migrations/0027_audit_chain.sql). Entries
 * written around the service after that (no hash, after linked ones) are never linked: `vigia audit verify`
 * names them.
 */
async function chainHead(trx: Kysely<DB>, projectId: number | null): Promise<string | null> {
  const last = await trx
    .selectFrom("audit_log")
    .select(["hash"])
    .where(chainOf(projectId))
    .where("hash", "is not", null)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (last) return last.hash;
  let prev: string | null = null;
  const earlier = await trx
    .selectFrom("audit_log")
    .select(CHAINED)
    .where(chainOf(projectId))
    .orderBy("id")
    .execute();
  for (const row of earlier) {
    const hash = entryHash({ ...row, id: String(row.id), prev_hash: prev });
    await trx.updateTable("audit_log").set({ prev_hash: prev, hash }).where("id", "=", row.id).execute();
    prev = hash;
  }
  return prev;
}

/**
 * Appends an entry to its chain: takes the chain's lock (held to the end of the transaction, so that entries are
 * linked in the order they commit), links it to the chain's head and stores its hash with it.
 */
export async function appendChained(
  trx: Kysely<DB>,
  entry: Omit<ChainedFields, "id" | "prev_hash" | "created_at">,
): Promise<void> {
  await capLock("audit_log", entry.project_id ?? 0).execute(trx);
  const prev = await chainHead(trx, entry.project_id);
  const { rows } = await sql<{
    id: string;
  }>`SELECT nextval(pg_get_serial_sequence('audit_log', 'id'))::text AS id`.execute(trx);
  const id = rows[0]?.id as string;
  // The value jsonb gives back: the hash is computed on the details as a reader will see them.
  const details = JSON.parse(JSON.stringify(entry.details ?? {}));
  const created_at = new Date();
  const hash = entryHash({ ...entry, details, id, created_at, prev_hash: prev });
  await trx
    .insertInto("audit_log")
    .values({
      id,
      project_id: entry.project_id,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      details: JSON.stringify(details),
      created_at,
      prev_hash: prev,
      hash,
    })
    .execute();
}
