// Projects: creation (with the first admin key), settings read and change, webhook secret rotation.
// Every change writes its audit row in the same transaction.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { ClientJurisdiction } from "../jurisdictions/index.ts";
import { seal, unseal } from "../platform/crypto/secrets.ts";
import { notFound } from "../platform/errors.ts";
import type { DB } from "../schema.ts";
import { insertKey } from "./api-keys.ts";
import { writeAudit } from "./audit.ts";
import { type Actor, actorName, type KeysContext } from "./context.ts";
import type { JurisdictionSettings, MxReportingEntity, SigningScheme } from "./tables.ts";

export interface ProjectView {
  id: number;
  name: string;
  integration_url: string | null;
  jurisdictions: string[];
  signing_scheme: SigningScheme;
  webhook_secret: string;
  /** each enabled jurisdiction's settings (its reporting entity), by code */
  jurisdiction_settings: JurisdictionSettings;
  /** how the jurisdiction that governs a client is chosen (src/jurisdictions/governing.ts); null: the defaults */
  client_jurisdiction: ClientJurisdiction | null;
  /** `jurisdiction_settings.MX` without its accumulation choice (the settings' earlier name, kept for integrators) */
  mx_reporting_entity: MxReportingEntity | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectPatch {
  name?: string;
  integration_url?: string | null;
  jurisdictions?: string[];
  signing_scheme?: SigningScheme;
  /** by code: a jurisdiction's new settings, or null to remove them; codes not given keep theirs */
  jurisdiction_settings?: Record<string, Record<string, unknown> | null>;
  client_jurisdiction?: ClientJurisdiction | null;
  mx_reporting_entity?: MxReportingEntity | null;
}

/** The MX settings as the earlier `mx_reporting_entity`: the reporting entity without the accumulation choice. */
function mxEntity(settings: JurisdictionSettings): MxReportingEntity | null {
  const mx = settings.MX as (MxReportingEntity & { accumulation?: string }) | undefined;
  if (!mx) return null;
  const { accumulation: _, ...entity } = mx;
  return entity;
}

/** Standard Webhooks secrets are `whsec_<base64>`; the canonical scheme uses a 32-character hex string. */
export function newWebhookSecret(scheme: SigningScheme): string {
  return scheme === "standard-webhooks"
    ? `whsec_${crypto.randomBytes(24).toString("base64")}`
    : crypto.randomBytes(16).toString("hex");
}

export async function createProject(
  ctx: KeysContext,
  input: { name: string; isDemo?: boolean },
  actor: Actor,
): Promise<{ projectId: number; keyId: number; key: string }> {
  return ctx.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("projects")
      .values({
        name: input.name,
        integration_url: null,
        webhook_secret_enc: seal(ctx.serverKeys, newWebhookSecret("standard-webhooks")),
        is_demo: input.isDemo ?? false,
        updated_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      projectId: id,
      actor: actorName(actor),
      action: "project.created",
      target: `project:${id}`,
      details: { name: input.name },
    });
    const key = await insertKey(trx, ctx, id, { label: "admin", role: "admin" }, actor);
    return { projectId: id, keyId: key.id, key: key.key };
  });
}

async function readProject(trx: Kysely<DB>, ctx: KeysContext, projectId: number, lock = false) {
  let query = trx.selectFrom("projects").selectAll().where("id", "=", projectId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound("Project");
  const settings = (row.jurisdiction_settings ?? {}) as JurisdictionSettings;
  return {
    id: row.id,
    name: row.name,
    integration_url: row.integration_url,
    jurisdictions: row.jurisdictions,
    signing_scheme: row.signing_scheme,
    webhook_secret: unseal(ctx.serverKeys, row.webhook_secret_enc),
    jurisdiction_settings: settings,
    client_jurisdiction: (row.client_jurisdiction ?? null) as ClientJurisdiction | null,
    mx_reporting_entity: mxEntity(settings),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  } satisfies ProjectView;
}

export function getProject(ctx: KeysContext, projectId: number): Promise<ProjectView> {
  return readProject(ctx.db, ctx, projectId);
}

/** How long a rotated-out webhook secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_GRACE_MS = 24 * 60 * 60_000;

export interface Integration {
  integrationUrl: string | null;
  scheme: SigningScheme;
  /** the current secret first, then a rotated-out one still in its grace period at `at` */
  secrets: string[];
}

/** What a call to the project's integrator is made with, at a time. */
export async function projectIntegration(
  ctx: KeysContext,
  projectId: number,
  at: Date,
): Promise<Integration> {
  const row = await ctx.db
    .selectFrom("projects")
    .select([
      "integration_url",
      "signing_scheme",
      "webhook_secret_enc",
      "previous_webhook_secret_enc",
      "previous_webhook_secret_until",
    ])
    .where("id", "=", projectId)
    .executeTakeFirst();
  if (!row) throw notFound("Project");
  const secrets = [unseal(ctx.serverKeys, row.webhook_secret_enc)];
  if (
    row.previous_webhook_secret_enc &&
    row.previous_webhook_secret_until &&
    new Date(row.previous_webhook_secret_until) > at
  )
    secrets.push(unseal(ctx.serverKeys, row.previous_webhook_secret_enc));
  return { integrationUrl: row.integration_url, scheme: row.signing_scheme, secrets };
}

/** The jurisdictions a project enables (none for an unknown project). */
export async function projectJurisdictions(db: Kysely<DB>, projectId: number): Promise<string[]> {
  const row = await db
    .selectFrom("projects")
    .select("jurisdictions")
    .where("id", "=", projectId)
    .executeTakeFirst();
  return row?.jurisdictions ?? [];
}

/** What judging and reporting a project's clients needs of its settings. */
export interface Compliance {
  jurisdictions: string[];
  settings: JurisdictionSettings;
  clientJurisdiction: ClientJurisdiction | null;
}

/** A project's jurisdictions and their settings (none for an unknown project). */
export async function projectCompliance(db: Kysely<DB>, projectId: number): Promise<Compliance> {
  const row = await db
    .selectFrom("projects")
    .select(["jurisdictions", "jurisdiction_settings", "client_jurisdiction"])
    .where("id", "=", projectId)
    .executeTakeFirst();
  return {
    jurisdictions: row?.jurisdictions ?? [],
    settings: (row?.jurisdiction_settings ?? {}) as JurisdictionSettings,
    clientJurisdiction: (row?.client_jurisdiction ?? null) as ClientJurisdiction | null,
  };
}

/** Every project that enables a jurisdiction, with its jurisdictions (the calendar's metric, the monthly schedule). */
export async function projectsWithJurisdictions(
  db: Kysely<DB>,
): Promise<{ id: number; jurisdictions: string[]; createdAt: Date }[]> {
  const rows = await db
    .selectFrom("projects")
    .select(["id", "jurisdictions", "created_at"])
    .orderBy("id")
    .execute();
  return rows
    .filter((r) => r.jurisdictions.length > 0)
    .map((r) => ({ id: r.id, jurisdictions: r.jurisdictions, createdAt: new Date(r.created_at) }));
}

export async function projectExists(db: Kysely<DB>, projectId: number): Promise<boolean> {
  return (
    (await db.selectFrom("projects").select("id").where("id", "=", projectId).executeTakeFirst()) !==
    undefined
  );
}

export async function updateProject(
  ctx: KeysContext,
  projectId: number,
  patch: ProjectPatch,
  actor: Actor,
): Promise<ProjectView> {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await readProject(trx, ctx, projectId, true);
    const changes: Record<string, unknown> = {};
    const set: Record<string, unknown> = {};
    if (patch.name !== undefined && patch.name !== before.name) set.name = changes.name = patch.name;
    if (patch.integration_url !== undefined && patch.integration_url !== before.integration_url) {
      set.integration_url = changes.integration_url = patch.integration_url;
    }
    if (patch.jurisdictions !== undefined) {
      const next = [...new Set(patch.jurisdictions)].sort();
      if (JSON.stringify(next) !== JSON.stringify([...before.jurisdictions].sort())) {
        changes.jurisdictions = next;
        set.jurisdictions = JSON.stringify(next);
      }
    }
    const settings = nextSettings(before.jurisdiction_settings, patch);
    if (JSON.stringify(settings) !== JSON.stringify(before.jurisdiction_settings)) {
      changes.jurisdiction_settings = settings;
      set.jurisdiction_settings = JSON.stringify(settings);
    }
    if (
      patch.client_jurisdiction !== undefined &&
      JSON.stringify(patch.client_jurisdiction) !== JSON.stringify(before.client_jurisdiction)
    ) {
      changes.client_jurisdiction = patch.client_jurisdiction;
      set.client_jurisdiction =
        patch.client_jurisdiction === null ? null : JSON.stringify(patch.client_jurisdiction);
    }
    if (patch.signing_scheme !== undefined && patch.signing_scheme !== before.signing_scheme) {
      // A secret of one scheme's shape can't serve the other, so a scheme change issues a new secret.
      changes.signing_scheme = set.signing_scheme = patch.signing_scheme;
      changes.webhook_secret = "rotated";
      set.webhook_secret_enc = seal(ctx.serverKeys, newWebhookSecret(patch.signing_scheme));
      // The old secret signs in the other scheme: no grace period for it.
      set.previous_webhook_secret_enc = null;
      set.previous_webhook_secret_until = null;
    }
    if (Object.keys(set).length === 0) return before;
    set.updated_at = new Date();
    await trx.updateTable("projects").set(set).where("id", "=", projectId).execute();
    await writeAudit(trx, {
      projectId,
      actor: actorName(actor),
      action: "project.updated",
      target: `project:${projectId}`,
      details: changes,
    });
    return readProject(trx, ctx, projectId);
  });
}

/** The settings after a patch: each code given replaced (null removes it); `mx_reporting_entity` sets MX's entity. */
function nextSettings(before: JurisdictionSettings, patch: ProjectPatch): JurisdictionSettings {
  const next: Record<string, Record<string, unknown>> = { ...before };
  for (const [code, value] of Object.entries(patch.jurisdiction_settings ?? {})) {
    if (value === null) delete next[code];
    else next[code] = value;
  }
  if (patch.mx_reporting_entity !== undefined) {
    if (patch.mx_reporting_entity === null) delete next.MX;
    else {
      const accumulation = (next.MX as { accumulation?: string } | undefined)?.accumulation;
      next.MX = { ...patch.mx_reporting_entity, ...(accumulation ? { accumulation } : {}) };
    }
  }
  return Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function rotateWebhookSecret(
  ctx: KeysContext,
  projectId: number,
  actor: Actor,
): Promise<string> {
  return ctx.db.transaction().execute(async (trx) => {
    const project = await readProject(trx, ctx, projectId, true);
    const secret = newWebhookSecret(project.signing_scheme);
    const now = new Date();
    await trx
      .updateTable("projects")
      .set({
        webhook_secret_enc: seal(ctx.serverKeys, secret),
        // The secret rotated out keeps signing beside the new one for a while, so that an integrator can switch
        // without dropping messages (Standard Webhooks carries several signatures).
        previous_webhook_secret_enc: seal(ctx.serverKeys, project.webhook_secret),
        previous_webhook_secret_until: new Date(now.getTime() + WEBHOOK_SECRET_GRACE_MS),
        updated_at: now,
      })
      .where("id", "=", projectId)
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
