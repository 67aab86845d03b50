// API keys of a project: create, list (with the key value, as the documented list returns it), revoke.
import type { Kysely } from "kysely";
import { hmacHex, seal, unseal } from "../platform/crypto/secrets.ts";
import { notFound } from "../platform/errors.ts";
import type { Role } from "../platform/http/auth.ts";
import { type Actor, actorName, writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import type { KeysContext } from "./context.ts";
import { generateApiKey } from "./key-format.ts";

export interface ApiKeyView {
  id: number;
  created_at: string;
  label: string;
  key: string;
  role: Role;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Inserts a key inside the caller's transaction (project creation makes its first admin key this way). */
export async function insertKey(
  trx: Kysely<DB>,
  ctx: KeysContext,
  projectId: number,
  input: { label: string; role: Role },
  actor: Actor,
): Promise<{ id: number; key: string }> {
  const key = generateApiKey();
  const { id } = await trx
    .insertInto("api_keys")
    .values({
      project_id: projectId,
      label: input.label,
      role: input.role,
      key_hmac: hmacHex(ctx.serverKeys.lookup, key),
      key_enc: seal(ctx.serverKeys, key),
      last_used_at: null,
      revoked_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await writeAudit(trx, {
    projectId,
    actor: actorName(actor),
    action: "key.created",
    target: `key:${id}`,
    details: { label: input.label, role: input.role },
  });
  return { id, key };
}

export function createKey(
  ctx: KeysContext,
  projectId: number,
  input: { label: string; role: Role },
  actor: Actor,
): Promise<{ id: number; key: string }> {
  return ctx.db.transaction().execute((trx) => insertKey(trx, ctx, projectId, input, actor));
}

export async function listKeys(
  ctx: KeysContext,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<ApiKeyView[]> {
  const rows = await ctx.db
    .selectFrom("api_keys")
    .select(["id", "created_at", "label", "key_enc", "role", "last_used_at", "revoked_at"])
    .where("project_id", "=", projectId)
    .orderBy("id")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    created_at: row.created_at.toISOString(),
    label: row.label,
    key: unseal(ctx.serverKeys, row.key_enc),
    role: row.role,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  }));
}

/** Revokes a key of the project at once; revoking an already revoked key changes nothing. */
export async function revokeKey(
  ctx: KeysContext,
  projectId: number,
  keyId: number,
  actor: Actor,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("api_keys")
      .select(["id", "revoked_at"])
      .where("id", "=", keyId)
      .where("project_id", "=", projectId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound("API key");
    if (row.revoked_at) return;
    await trx.updateTable("api_keys").set({ revoked_at: new Date() }).where("id", "=", keyId).execute();
    await writeAudit(trx, {
      projectId,
      actor: actorName(actor),
      action: "key.revoked",
      target: `key:${keyId}`,
    });
  });
}

/** The labels of the project's keys that are not revoked: who an alert may be assigned to (src/alerts). */
export async function activeKeyLabels(db: Kysely<DB>, projectId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("api_keys")
    .select("label")
    .where("project_id", "=", projectId)
    .where("revoked_at", "is", null)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.label);
}

/** Every key's label by its id, revoked ones included: how a history names the key that made a change. */
export async function keyLabelsById(db: Kysely<DB>, projectId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom("api_keys")
    .select(["id", "label"])
    .where("project_id", "=", projectId)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.label]));
}
