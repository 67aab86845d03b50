// A project's integrator settings: where its server is (`integration_url`), how calls to it are signed
// (`signing_scheme`) and with which secret, current and rotated-out. They show in GET /projects/{id} and change
// through PATCH /projects/{id} as a part of the project's settings (src/projects/settings-part.ts); the secret
// rotates through POST /projects/{id}/webhook-secret. A project's row is made on first use.
import crypto from "node:crypto";
import { Type } from "@sinclair/typebox";
import type { Kysely, Selectable } from "kysely";
import { type ServerKeys, seal, unseal } from "../platform/crypto/secrets.ts";
import { notFound } from "../platform/errors.ts";
import { type Actor, actorName, type SettingsPart, writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import type { SigningScheme } from "./signing.ts";
import type { IntegrationsTable } from "./tables.ts";

/** How long a rotated-out webhook secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_GRACE_MS = 24 * 60 * 60_000;

/** Standard Webhooks secrets are `whsec_<base64>`; the canonical scheme uses a 32-character hex string. */
export function newWebhookSecret(scheme: SigningScheme): string {
  return scheme === "standard-webhooks"
    ? `whsec_${crypto.randomBytes(24).toString("base64")}`
    : crypto.randomBytes(16).toString("hex");
}

export interface Integration {
  integrationUrl: string | null;
  scheme: SigningScheme;
  /** the current secret first, then a rotated-out one still in its grace period at `at` */
  secrets: string[];
  /** whether its last calls failed (a success then clears its health record: health.ts) */
  failing: boolean;
}

/** The project's integration row, made (with a new secret) the first time it is needed; notFound for no project. */
async function integrationRow(db: Kysely<DB>, keys: ServerKeys, projectId: number, lock = false) {
  const read = () => {
    let query = db.selectFrom("integrations").selectAll().where("project_id", "=", projectId);
    if (lock) query = query.forUpdate();
    return query.executeTakeFirst();
  };
  const found = await read();
  if (found) return found;
  const project = await db.selectFrom("projects").select("id").where("id", "=", projectId).executeTakeFirst();
  if (!project) throw notFound("Project");
  await db
    .insertInto("integrations")
    .values({
      project_id: projectId,
      webhook_secret_enc: seal(keys, newWebhookSecret("standard-webhooks")),
      updated_at: new Date(),
    })
    .onConflict((oc) => oc.column("project_id").doNothing())
    .execute();
  return (await read()) ?? Promise.reject(notFound("Project"));
}

/** What a call to the project's integrator is made with, at a time. */
export async function projectIntegration(
  db: Kysely<DB>,
  keys: ServerKeys,
  projectId: number,
  at: Date,
): Promise<Integration> {
  return integrationOf(keys, await integrationRow(db, keys, projectId), at);
}

/** The columns of an integration row a call is made with (the deliverer reads them with its claim). */
export type IntegrationRow = Pick<
  Selectable<IntegrationsTable>,
  | "integration_url"
  | "signing_scheme"
  | "webhook_secret_enc"
  | "previous_webhook_secret_enc"
  | "previous_webhook_secret_until"
  | "failing_since"
  | "delivery_backoffs"
>;

/** What a call is made with, from the project's integration row, at a time. */
export function integrationOf(keys: ServerKeys, row: IntegrationRow, at: Date): Integration {
  const secrets = [unseal(keys, row.webhook_secret_enc)];
  if (
    row.previous_webhook_secret_enc &&
    row.previous_webhook_secret_until &&
    new Date(row.previous_webhook_secret_until) > at
  )
    secrets.push(unseal(keys, row.previous_webhook_secret_enc));
  return {
    integrationUrl: row.integration_url,
    scheme: row.signing_scheme,
    secrets,
    failing: row.failing_since !== null || row.delivery_backoffs > 0,
  };
}

const SigningSchemeSchema = Type.Union([Type.Literal("standard-webhooks"), Type.Literal("hmac-canonical")]);

/** The integrator's fields of a project's settings (GET and PATCH /projects/{id}). */
export function integrationSettings(keys: ServerKeys): SettingsPart {
  const read = async (trx: Kysely<DB>, projectId: number) => {
    const row = await integrationRow(trx, keys, projectId);
    return {
      integration_url: row.integration_url,
      signing_scheme: row.signing_scheme,
      webhook_secret: unseal(keys, row.webhook_secret_enc),
      integration_status: {
        failing_since: row.failing_since ? new Date(row.failing_since).toISOString() : null,
        last_failure: row.last_failure,
        delivery_paused_until:
          row.delivery_paused_until && new Date(row.delivery_paused_until) > new Date()
            ? new Date(row.delivery_paused_until).toISOString()
            : null,
      },
    };
  };
  return {
    view: {
      integration_url: Type.Union([Type.String(), Type.Null()]),
      signing_scheme: SigningSchemeSchema,
      webhook_secret: Type.String(),
      integration_status: Type.Object(
        {
          failing_since: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
            description: "since when every call to the integrator has failed; null: the last one succeeded",
          }),
          last_failure: Type.Union([Type.String(), Type.Null()]),
          delivery_paused_until: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
            description: "deliveries wait until then after the webhook endpoint timed out or was unreachable",
          }),
        },
        { description: 'how the integrator has been answering (docs/api.md, "Calls to the integrator")' },
      ),
    },
    patch: {
      integration_url: Type.Optional(
        Type.Union([Type.String({ pattern: "^https?://[^\\s]+$", maxLength: 2000 }), Type.Null()]),
      ),
      signing_scheme: Type.Optional(SigningSchemeSchema),
    },
    read,
    async apply(trx, projectId, patch) {
      const before = await integrationRow(trx, keys, projectId, true);
      const changes: Record<string, unknown> = {};
      const set: Record<string, unknown> = {};
      const url = patch.integration_url as string | null | undefined;
      if (url !== undefined && url !== before.integration_url) {
        set.integration_url = changes.integration_url = url;
        // A new endpoint starts with a clean record: the old one's failures and pause are not its.
        Object.assign(set, {
          failing_since: null,
          last_failure: null,
          delivery_paused_until: null,
          delivery_backoffs: 0,
        });
      }
      const scheme = patch.signing_scheme as SigningScheme | undefined;
      if (scheme !== undefined && scheme !== before.signing_scheme) {
        // A secret of one scheme's shape can't serve the other, so a scheme change issues a new secret.
        changes.signing_scheme = set.signing_scheme = scheme;
        changes.webhook_secret = "rotated";
        set.webhook_secret_enc = seal(keys, newWebhookSecret(scheme));
        // The old secret signs in the other scheme: no grace period for it.
        set.previous_webhook_secret_enc = null;
        set.previous_webhook_secret_until = null;
      }
      if (Object.keys(set).length > 0) {
        set.updated_at = new Date();
        await trx.updateTable("integrations").set(set).where("project_id", "=", projectId).execute();
      }
      return changes;
    },
  };
}

/** Issues a new webhook secret; the one it replaces keeps signing for WEBHOOK_SECRET_GRACE_MS. */
export async function rotateWebhookSecret(
  db: Kysely<DB>,
  keys: ServerKeys,
  projectId: number,
  actor: Actor,
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await integrationRow(trx, keys, projectId, true);
    const secret = newWebhookSecret(row.signing_scheme);
    const now = new Date();
    await trx
      .updateTable("integrations")
      .set({
        webhook_secret_enc: seal(keys, secret),
        // The secret rotated out keeps signing beside the new one for a while, so that an integrator can switch
        // without dropping messages (Standard Webhooks carries several signatures).
        previous_webhook_secret_enc: row.webhook_secret_enc,
        previous_webhook_secret_until: new Date(now.getTime() + WEBHOOK_SECRET_GRACE_MS),
        updated_at: now,
      })
      .where("project_id", "=", projectId)
      .execute();
    await writeAudit(trx, {
      projectId,
      actor: actorName(actor),
      action: "project.webhook_secret_rotated",
      target: `project:${projectId}`,
    });
    return secret;
  });
}
