// A project's integrator settings: where its server is (`integration_url`), how calls to it are signed
// (`signing_scheme`) and with which secret, current and rotated-out. They show in GET /projects/{id} and change
// through PATCH /projects/{id} as a part of the project's settings (src/projects/settings-part.ts), the secret too:
// an integrator moving from the original service keeps the secret its receiver verifies with (checked for shape,
// length and entropy: secret-strength.ts). The secret rotates through POST /projects/{id}/webhook-secret, the
// rotated-out one signing beside it (Standard Webhooks) or first until the integrator takes the new one
// (`hmac-canonical`: rotation.ts) for a while. A project's row is made on first use.
import crypto from "node:crypto";
import { Type } from "@sinclair/typebox";
import type { Kysely, Selectable } from "kysely";
import { type ServerKeys, seal, unseal } from "../platform/crypto/secrets.ts";
import { invalid, MESSAGES, notFound } from "../platform/errors.ts";
import { StringEnum } from "../platform/http/schemas.ts";
import { type Actor, actorName, type SettingsPart, writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { MAX_SECRET_LENGTH, weakSecret } from "./secret-strength.ts";
import type { SigningScheme } from "./signing.ts";
import type { IntegrationsTable } from "./tables.ts";
import { unreachableIntegrationUrl } from "./url-reach.ts";

/** How long a rotated-out webhook secret keeps signing beside the new one, unless the rotation says otherwise. */
export const WEBHOOK_SECRET_GRACE_MS = 24 * 60 * 60_000;
/** The longest a rotation may keep the rotated-out secret (POST /projects/{id}/webhook-secret `keep_previous_hours`). */
export const MAX_KEEP_PREVIOUS_HOURS = 30 * 24;

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
  /** the current secret as stored (sealed): which rotation a confirmation ends (rotation.ts) */
  sealedSecret: string;
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
    sealedSecret: row.webhook_secret_enc,
    failing: row.failing_since !== null || row.delivery_backoffs > 0,
  };
}

const SigningSchemeSchema = StringEnum(["standard-webhooks", "hmac-canonical"]);

/** The integrator's fields of a project's settings (GET and PATCH /projects/{id}). */
export function integrationSettings(
  keys: ServerKeys,
  /** VIGIA_ALLOW_PRIVATE_OUTBOUND: whether calls may reach loopback and private addresses */
  allowPrivateOutbound: boolean,
): SettingsPart {
  const read = async (trx: Kysely<DB>, projectId: number) => {
    const row = await integrationRow(trx, keys, projectId);
    return {
      integration_url: row.integration_url,
      signing_scheme: row.signing_scheme,
      webhook_secret: unseal(keys, row.webhook_secret_enc),
      previous_webhook_secret_until:
        row.previous_webhook_secret_enc &&
        row.previous_webhook_secret_until &&
        new Date(row.previous_webhook_secret_until) > new Date()
          ? new Date(row.previous_webhook_secret_until).toISOString()
          : null,
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
      previous_webhook_secret_until: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
        description:
          "during a rotation, until when the rotated-out secret still signs: beside the new one (standard-webhooks), " +
          "or first, until the integrator accepts a call signed with the new one (hmac-canonical); null: no rotation",
      }),
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
      webhook_secret: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: MAX_SECRET_LENGTH + "whsec_".length,
          description:
            "a secret the integrator already verifies with (moving from the original service: its 32 hex characters), " +
            "in the project's signing_scheme (or the one this PATCH sets); checked for shape, length and entropy. It " +
            "signs every call at once; to change a secret in use, rotate it (POST .../webhook-secret)",
        }),
      ),
    },
    read,
    async apply(trx, projectId, patch) {
      const before = await integrationRow(trx, keys, projectId, true);
      const changes: Record<string, unknown> = {};
      const set: Record<string, unknown> = {};
      const url = patch.integration_url as string | null | undefined;
      if (url !== undefined && url !== before.integration_url) {
        const unreachable = url === null ? undefined : unreachableIntegrationUrl(url, allowPrivateOutbound);
        if (unreachable)
          throw invalid(MESSAGES.invalidBody, [{ path: "/integration_url", message: unreachable }]);
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
      const given = patch.webhook_secret as string | undefined;
      const schemeAfter = scheme ?? before.signing_scheme;
      if (given !== undefined) {
        const weak = weakSecret(schemeAfter, given);
        if (weak)
          throw invalid(MESSAGES.invalidBody, [
            { path: "/webhook_secret", message: `${weak} (signing_scheme ${schemeAfter})` },
          ]);
      }
      if (scheme !== undefined && scheme !== before.signing_scheme) {
        // A secret of one scheme's shape can't serve the other, so a scheme change issues a new secret (or takes
        // the one given).
        changes.signing_scheme = set.signing_scheme = scheme;
        changes.webhook_secret = given === undefined ? "rotated" : "set";
        set.webhook_secret_enc = seal(keys, given ?? newWebhookSecret(scheme));
        // The old secret signs in the other scheme: no grace period for it.
        set.previous_webhook_secret_enc = null;
        set.previous_webhook_secret_until = null;
      } else if (given !== undefined && given !== unseal(keys, before.webhook_secret_enc)) {
        // The secret the integrator already verifies with: it signs at once, alone (a rotation is the way to
        // change a secret in use without failing a call).
        changes.webhook_secret = "set";
        set.webhook_secret_enc = seal(keys, given);
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

/**
 * Issues a new webhook secret; the one it replaces keeps signing for `keepPreviousMs` (WEBHOOK_SECRET_GRACE_MS by
 * default; 0: at once): beside the new one under Standard Webhooks, first under `hmac-canonical` until the
 * integrator accepts a call signed with the new one (rotation.ts). A canonical rotation made while another is
 * still waiting for the integrator keeps the secret the integrator still uses and replaces the one it has not
 * taken.
 */
export async function rotateWebhookSecret(
  db: Kysely<DB>,
  keys: ServerKeys,
  projectId: number,
  actor: Actor,
  keepPreviousMs: number = WEBHOOK_SECRET_GRACE_MS,
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await integrationRow(trx, keys, projectId, true);
    const secret = newWebhookSecret(row.signing_scheme);
    const now = new Date();
    const waiting =
      row.signing_scheme === "hmac-canonical" &&
      row.previous_webhook_secret_enc !== null &&
      row.previous_webhook_secret_until !== null &&
      new Date(row.previous_webhook_secret_until) > now;
    await trx
      .updateTable("integrations")
      .set({
        webhook_secret_enc: seal(keys, secret),
        // The secret rotated out keeps signing for a while, so that an integrator can switch without dropping
        // messages.
        previous_webhook_secret_enc:
          keepPreviousMs > 0 ? (waiting ? row.previous_webhook_secret_enc : row.webhook_secret_enc) : null,
        previous_webhook_secret_until: keepPreviousMs > 0 ? new Date(now.getTime() + keepPreviousMs) : null,
        updated_at: now,
      })
      .where("project_id", "=", projectId)
      .execute();
    await writeAudit(trx, {
      projectId,
      actor: actorName(actor),
      action: "project.webhook_secret_rotated",
      target: `project:${projectId}`,
      details: { keep_previous_hours: keepPreviousMs / 3_600_000 },
    });
    return secret;
  });
}

/**
 * A new project's signing scheme, with a new secret of its shape, in the caller's transaction (`vigia projects
 * create --signing-scheme`); the secret.
 */
export async function setSigningScheme(
  trx: Kysely<DB>,
  keys: ServerKeys,
  projectId: number,
  scheme: SigningScheme,
): Promise<string> {
  await integrationRow(trx, keys, projectId, true);
  const secret = newWebhookSecret(scheme);
  await trx
    .updateTable("integrations")
    .set({
      signing_scheme: scheme,
      webhook_secret_enc: seal(keys, secret),
      previous_webhook_secret_enc: null,
      previous_webhook_secret_until: null,
      updated_at: new Date(),
    })
    .where("project_id", "=", projectId)
    .execute();
  return secret;
}
