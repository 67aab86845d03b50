// The audit chains' signed heads (docs/decisions/0037-audit-head.md; docs/operations.md, "The audit log"). A chain's
// hashes alone can be recomputed by anyone who can write the database: blank them, edit or remove entries, and the
// chain can be sealed again from scratch. So each chain's head (how many entries, the last one's id and hash) is
// kept in `audit_heads`, signed with an HMAC key derived from the server secret, and moved by every audit write in
// the writer's own transaction, under the chain's lock: the head never goes backwards however many processes
// write, and the database's writer, who lacks the secret, cannot sign a head for a chain it re-sealed.
//
// The signing keys are the process's, set once by whatever opens the store for the service or a command
// (`useAuditKeys`): the writers of audit entries are spread over every room and take only a transaction, and the
// key must not be stored where the database's writer could read it.
import type { Kysely } from "kysely";
import { constantTimeEqual, everyKey, hmacHex, type ServerKeys } from "../platform/crypto/secrets.ts";
import { capLock } from "../platform/db/advisory.ts";
import type { DB } from "../schema.ts";
import { canonicalJson } from "./audit-chain.ts";

/** A chain's signed head, as stored, printed by `vigia audit head` and read back by `vigia audit verify --head`. */
export interface AuditHead {
  /** null: the service's own chain */
  projectId: number | null;
  /** how many entries the chain holds up to and including this one */
  seq: number;
  /** the last entry's id and hash */
  id: string;
  hash: string;
  signedAt: string;
  /** the public name of the secret whose key signed it */
  keyId: string;
  /** hex HMAC-SHA256 of the fields above (`headSigningText`) */
  signature: string;
}

let processKeys: ServerKeys | undefined;

/** The keys this process signs heads with (and verifies them by, with the previous secrets'). */
export function useAuditKeys(keys: ServerKeys): void {
  processKeys = keys;
}

export function auditKeys(): ServerKeys {
  if (!processKeys)
    throw new Error(
      "the audit log's signing key is not set in this process (useAuditKeys): audit entries cannot be written",
    );
  return processKeys;
}

/** The chain's key in `audit_heads`: the project's id, 0 for the service's own chain. */
export const chainKey = (projectId: number | null): number => projectId ?? 0;

/** What the signature covers; versioned so another layout can never be read as this one. */
function headSigningText(h: Omit<AuditHead, "keyId" | "signature">): string {
  return canonicalJson(["vigia-audit-head-v1", h.projectId, h.seq, h.id, h.hash, h.signedAt]);
}

export function signHead(keys: ServerKeys, h: Omit<AuditHead, "keyId" | "signature">): AuditHead {
  return { ...h, keyId: keys.id, signature: hmacHex(keys.auditHead, headSigningText(h)) };
}

/** Whether the head's signature is one of these keys' (the current secret's or a previous one's). */
export function headSignatureValid(keys: ServerKeys, h: AuditHead): boolean {
  const key = everyKey(keys).find((k) => k.id === h.keyId);
  if (!key) return false;
  return constantTimeEqual(hmacHex(key.auditHead, headSigningText(h)), String(h.signature));
}

type HeadRow = {
  chain: number;
  seq: string;
  entry_id: string;
  hash: string;
  signed_at: Date;
  key_id: string;
  signature: string;
};

const fromRow = (r: HeadRow): AuditHead => ({
  projectId: r.chain === 0 ? null : r.chain,
  seq: Number(r.seq),
  id: String(r.entry_id),
  hash: r.hash,
  signedAt: r.signed_at.toISOString(),
  keyId: r.key_id,
  signature: r.signature,
});

export async function readHead(db: Kysely<DB>, projectId: number | null): Promise<AuditHead | undefined> {
  const row = await db
    .selectFrom("audit_heads")
    .selectAll()
    .where("chain", "=", chainKey(projectId))
    .executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** Every chain's stored head, the service's own first. */
export async function listHeads(db: Kysely<DB>): Promise<AuditHead[]> {
  const rows = await db.selectFrom("audit_heads").selectAll().orderBy("chain").execute();
  return rows.map(fromRow);
}

/** Stores a chain's head; the caller holds the chain's lock (appendChained), in the transaction of the entry. */
export async function storeHead(trx: Kysely<DB>, h: AuditHead): Promise<void> {
  const values = {
    chain: chainKey(h.projectId),
    seq: h.seq,
    entry_id: h.id,
    hash: h.hash,
    signed_at: h.signedAt,
    key_id: h.keyId,
    signature: h.signature,
  };
  await trx
    .insertInto("audit_heads")
    .values(values)
    .onConflict((oc) =>
      oc.column("chain").doUpdateSet({
        seq: values.seq,
        entry_id: values.entry_id,
        hash: values.hash,
        signed_at: values.signed_at,
        key_id: values.key_id,
        signature: values.signature,
      }),
    )
    .execute();
}

/**
 * Signs again with the current secret every head a previous secret signed (`vigia secret reseal` and `rotate`), so
 * that heads of quiet chains stay verifiable once that secret is dropped. A head no key of this process signed is
 * left as it is, for `vigia audit verify` to report.
 */
export async function resignHeads(db: Kysely<DB>, keys: ServerKeys): Promise<number> {
  let resigned = 0;
  for (const head of await listHeads(db)) {
    if (head.keyId === keys.id || !headSignatureValid(keys, head)) continue;
    await db.transaction().execute(async (trx) => {
      await chainLock(head.projectId).execute(trx);
      const current = await readHead(trx, head.projectId);
      // A write in between moved it (and signed it with the current key): nothing to do.
      if (!current || current.signature !== head.signature) return;
      const { keyId: _k, signature: _s, ...fields } = current;
      await storeHead(trx, signHead(keys, fields));
      resigned++;
    });
  }
  return resigned;
}

/** The chain's lock, held to the end of the transaction: entries and the head move in the order they commit. */
export const chainLock = (projectId: number | null) => capLock("audit_log", chainKey(projectId));
