// The audit log as a hash chain (docs/operations.md, "The audit log"). Each project's entries, and the service's own
// (no project), form one chain in id order: an entry's hash covers its contents and the hash of the entry before it,
// so an entry changed, removed or slipped in afterwards breaks the link after it, and `vigia audit verify` names the
// first broken one. One chain per project rather than one for all: writers of different projects never wait for
// each other, and a project's chain is whole on its own. Every entry is linked when it is written, and each chain's
// head is signed (audit-head.ts), so that a chain cannot be blanked and sealed again.
import crypto from "node:crypto";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { auditKeys, chainLock, headSignatureValid, readHead, signHead, storeHead } from "./audit-head.ts";

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
 * Appends an entry to its chain and moves the chain's signed head to it (src/projects/audit-head.ts), in the
 * caller's transaction: takes the chain's lock (held to the end of the transaction, so that entries link in the
 * order they commit and the head never goes backwards), links the entry to the signed head's hash and stores its
 * hash with it. Never to the chain's last row: that row may have been edited, blanked or removed around the
 * service, and linking to what is there now would seal it. A chain without a head it can trust (none, or one no
 * key of this process signed) starts over from this entry: for a new chain that is its beginning; for an old one,
 * whose head was removed or forged, `vigia audit verify` names the break before it.
 */
export async function appendChained(
  trx: Kysely<DB>,
  entry: Omit<ChainedFields, "id" | "prev_hash" | "created_at">,
): Promise<void> {
  const keys = auditKeys();
  await chainLock(entry.project_id).execute(trx);
  const head = await readHead(trx, entry.project_id);
  const trusted = head && headSignatureValid(keys, head) ? head : undefined;
  const prev = trusted?.hash ?? null;
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
  await storeHead(
    trx,
    signHead(keys, {
      projectId: entry.project_id,
      seq: (trusted?.seq ?? 0) + 1,
      id,
      hash,
      signedAt: created_at.toISOString(),
    }),
  );
}
