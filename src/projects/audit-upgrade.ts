// The one moment a chain is sealed without a head before it: the upgrade that brings the signed heads
// (migrations/0039_audit_heads.sql). The process that applies that migration links, in id order, the entries of any
// chain never linked (written before migration 0027 in a chain not written since: the old lazy linking) and signs
// each chain's head at its last linked entry. It runs only in the process whose `migrate` applied 0039, never again:
// afterwards a chain is only ever extended from its signed head (audit-chain.ts), and an entry written around the
// service (no hash) after a linked one stays unlinked, for `vigia audit verify` to name.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { CHAINED, chainOf, entryHash } from "./audit-chain.ts";
import { auditKeys, chainLock, readHead, signHead, storeHead } from "./audit-head.ts";

export const AUDIT_HEADS_MIGRATION = "0039_audit_heads";

/** Whether this process's `migrate` just applied the migration that brings the signed heads. */
export const upgradedToAuditHeads = (applied: readonly string[]) => applied.includes(AUDIT_HEADS_MIGRATION);

/** Links the never-linked chains and signs every chain's head; returns how many heads it signed. */
export async function sealChainsAtUpgrade(db: Kysely<DB>): Promise<number> {
  const keys = auditKeys();
  const chains = await db.selectFrom("audit_log").select("project_id").distinct().execute();
  let signed = 0;
  for (const { project_id: projectId } of chains) {
    await db.transaction().execute(async (trx) => {
      await chainLock(projectId).execute(trx);
      if (await readHead(trx, projectId)) return;
      const rows = await trx
        .selectFrom("audit_log")
        .select(CHAINED)
        .where(chainOf(projectId))
        .orderBy("id")
        .execute();
      const neverLinked = rows.every((r) => r.hash === null);
      let prev: string | null = null;
      let seq = 0;
      let last: { id: string; hash: string } | undefined;
      for (const row of rows) {
        const id = String(row.id);
        if (neverLinked) {
          const hash = entryHash({ ...row, id, prev_hash: prev });
          await trx.updateTable("audit_log").set({ prev_hash: prev, hash }).where("id", "=", id).execute();
          row.hash = hash;
        }
        if (row.hash === null) continue;
        prev = row.hash;
        seq++;
        last = { id, hash: row.hash };
      }
      if (!last) return;
      await storeHead(
        trx,
        signHead(keys, { projectId, seq, id: last.id, hash: last.hash, signedAt: new Date().toISOString() }),
      );
      signed++;
    });
  }
  return signed;
}
