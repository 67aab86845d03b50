// Projects: creation, settings read and change, and the reads other rooms make of a project's jurisdictions. A
// project's settings include the parts other rooms own (settings-part.ts), read and changed with the rest. Every
// change writes its audit row in the same transaction.
import type { Kysely } from "kysely";
import type { ClientJurisdiction, MxReportingEntity } from "../jurisdictions/index.ts";
import { invalid, MESSAGES, notFound } from "../platform/errors.ts";
import type { DB } from "../schema.ts";
import { type Actor, actorName } from "./actor.ts";
import { writeAudit } from "./audit.ts";
import type { ProjectsContext } from "./context.ts";
import type { ProjectPatch, ProjectView } from "./schemas.ts";
import type { SettingsPart } from "./settings-part.ts";
import type { JurisdictionSettings } from "./tables.ts";

/** The MX settings as the earlier `mx_reporting_entity`: the reporting entity without the accumulation choice. */
function mxEntity(settings: JurisdictionSettings): MxReportingEntity | null {
  const mx = settings.MX as (MxReportingEntity & { accumulation?: string }) | undefined;
  if (!mx) return null;
  const { accumulation: _, ...entity } = mx;
  return entity;
}

/**
 * Inserts a project in the caller's transaction with its audit row; its id. (The keys room makes a project with
 * its first admin key this way.)
 */
export async function insertProject(
  trx: Kysely<DB>,
  input: { name: string; isDemo?: boolean },
  actor: Actor,
): Promise<number> {
  const { id } = await trx
    .insertInto("projects")
    .values({ name: input.name, is_demo: input.isDemo ?? false, updated_at: new Date() })
    .returning("id")
    .executeTakeFirstOrThrow();
  await writeAudit(trx, {
    projectId: id,
    actor: actorName(actor),
    action: "project.created",
    target: `project:${id}`,
    details: { name: input.name },
  });
  return id;
}

async function readProject(
  db: Kysely<DB>,
  parts: readonly SettingsPart[],
  projectId: number,
  lock = false,
): Promise<ProjectView> {
  let query = db.selectFrom("projects").selectAll().where("id", "=", projectId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound("Project");
  const settings = (row.jurisdiction_settings ?? {}) as JurisdictionSettings;
  const view: ProjectView = {
    id: row.id,
    name: row.name,
    jurisdictions: row.jurisdictions,
    jurisdiction_settings: settings,
    client_jurisdiction: (row.client_jurisdiction ?? null) as ClientJurisdiction | null,
    mx_reporting_entity: mxEntity(settings),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  for (const part of parts) Object.assign(view, await part.read(db, projectId));
  return view;
}

export function getProject(ctx: ProjectsContext, projectId: number): Promise<ProjectView> {
  return readProject(ctx.db, ctx.parts, projectId);
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

/** When a project was created (undefined for an unknown project): no filing is owed for the months before it. */
export async function projectCreatedAt(db: Kysely<DB>, projectId: number): Promise<Date | undefined> {
  const row = await db
    .selectFrom("projects")
    .select("created_at")
    .where("id", "=", projectId)
    .executeTakeFirst();
  return row ? new Date(row.created_at) : undefined;
}

export async function projectExists(db: Kysely<DB>, projectId: number): Promise<boolean> {
  return (
    (await db.selectFrom("projects").select("id").where("id", "=", projectId).executeTakeFirst()) !==
    undefined
  );
}

export async function updateProject(
  ctx: ProjectsContext,
  projectId: number,
  patch: ProjectPatch,
  actor: Actor,
): Promise<ProjectView> {
  const { parts } = ctx;
  return ctx.db.transaction().execute(async (trx) => {
    const before = await readProject(trx, [], projectId, true);
    const changes: Record<string, unknown> = {};
    const set: Record<string, unknown> = {};
    if (patch.name !== undefined && patch.name !== before.name) set.name = changes.name = patch.name;
    if (patch.jurisdictions !== undefined) {
      const next = [...new Set(patch.jurisdictions)].sort();
      if (JSON.stringify(next) !== JSON.stringify([...before.jurisdictions].sort())) {
        changes.jurisdictions = next;
        set.jurisdictions = JSON.stringify(next);
      }
    }
    // A jurisdiction that files clients by nationality must be one the project enables, or nothing would be filed.
    const enabled = patch.jurisdictions ?? before.jurisdictions;
    const clientJurisdiction =
      patch.client_jurisdiction !== undefined ? patch.client_jurisdiction : before.client_jurisdiction;
    const notEnabled = (clientJurisdiction?.alsoByNationality ?? []).filter((c) => !enabled.includes(c));
    if (notEnabled.length > 0)
      throw invalid(MESSAGES.invalidBody, [
        {
          path: "/client_jurisdiction/alsoByNationality",
          message: `names ${notEnabled.join(", ")}, which the project does not enable (its jurisdictions: ${enabled.join(", ") || "none"}): enable it in \`jurisdictions\` or leave it out`,
        },
      ]);
    const settings = nextSettings(before.jurisdiction_settings as JurisdictionSettings, patch);
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
    for (const part of parts) Object.assign(changes, await part.apply(trx, projectId, patch));
    if (Object.keys(changes).length > 0) {
      set.updated_at = new Date();
      await trx.updateTable("projects").set(set).where("id", "=", projectId).execute();
      await writeAudit(trx, {
        projectId,
        actor: actorName(actor),
        action: "project.updated",
        target: `project:${projectId}`,
        details: changes,
      });
    }
    return readProject(trx, parts, projectId);
  });
}

/** The settings after a patch: each code given replaced (null removes it); `mx_reporting_entity` sets MX's entity. */
function nextSettings(before: JurisdictionSettings, patch: ProjectPatch): JurisdictionSettings {
  const next: Record<string, Record<string, unknown>> = { ...before };
  for (const [code, value] of Object.entries(patch.jurisdiction_settings ?? {})) {
    if (value === null || value === undefined) delete next[code];
    else next[code] = value as Record<string, unknown>;
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

/** Whether the store holds any project yet (the embedded database's first start makes the demo's). */
export async function hasProjects(db: Kysely<DB>): Promise<boolean> {
  return (await db.selectFrom("projects").select("id").limit(1).executeTakeFirst()) !== undefined;
}

/** The demo project's id (the first, if several were made), or undefined where there is none. */
export async function demoProjectId(db: Kysely<DB>): Promise<number | undefined> {
  const row = await db
    .selectFrom("projects")
    .select("id")
    .where("is_demo", "=", true)
    .orderBy("id")
    .executeTakeFirst();
  return row?.id;
}
