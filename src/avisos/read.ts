// Reading the avisos due from knowledge: those whose file is still to be written (for the reports' writer), a
// month's (for the filing calendar), a project's (GET /projects/{id}/avisos); and recording that a file was written
// or could not be (audited in the same transaction).
import { type Kysely, type Selectable, sql } from "kysely";
import { writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import type { AvisoListing, AvisosTable } from "./tables.ts";

export interface Aviso {
  id: string;
  projectId: number;
  countryCode: string;
  userId: string;
  basis: string;
  origin: string;
  reference: string;
  period: string;
  knownAt: Date;
  deadline: Date;
  narrative: string;
  account: string | null;
  listing: AvisoListing | null;
  alertIds: string[];
  txHashes: string[];
  /** who tried to operate, as given, for an attempt by someone the integrator may not know */
  prospect: Record<string, unknown> | null;
  createdBy: string;
  /** when its file was written (or found owed by no file of this jurisdiction) */
  settledAt: Date | null;
  /** false once its client was found governed by another jurisdiction, or none of the project's */
  owed: boolean;
}

const COLUMNS = [
  "id",
  "project_id",
  "country_code",
  "user_id",
  "basis",
  "origin",
  "reference",
  "period",
  "known_at",
  "deadline",
  "narrative",
  "account",
  "listing",
  "alert_ids",
  "tx_hashes",
  "prospect",
  "created_by",
  "settled_at",
  "owed",
] as const;

type Row = Pick<Selectable<AvisosTable>, (typeof COLUMNS)[number]>;

function avisoOf(r: Row): Aviso {
  return {
    id: String(r.id),
    projectId: r.project_id,
    countryCode: r.country_code,
    userId: r.user_id,
    basis: r.basis,
    origin: r.origin,
    reference: r.reference,
    period: r.period,
    knownAt: new Date(r.known_at),
    deadline: new Date(r.deadline),
    narrative: r.narrative,
    account: r.account,
    listing: r.listing,
    alertIds: r.alert_ids,
    txHashes: r.tx_hashes,
    prospect: r.prospect,
    createdBy: r.created_by,
    settledAt: r.settled_at ? new Date(r.settled_at) : null,
    owed: r.owed,
  };
}

/** Avisos of `countryCode` whose file is not written, and not tried since `triedBefore`; oldest first. */
export async function unsettledAvisos(
  db: Kysely<DB>,
  countryCode: string,
  triedBefore: Date,
  limit: number,
): Promise<Aviso[]> {
  const rows = await db
    .selectFrom("avisos")
    .select([...COLUMNS])
    .where("country_code", "=", countryCode)
    .where("settled_at", "is", null)
    .where((eb) => eb.or([eb("tried_at", "is", null), eb("tried_at", "<", triedBefore)]))
    .orderBy("known_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(avisoOf);
}

/** A project's avisos of one jurisdiction and month. */
export async function avisosOfMonth(
  db: Kysely<DB>,
  projectId: number,
  countryCode: string,
  period: string,
): Promise<Aviso[]> {
  const rows = await db
    .selectFrom("avisos")
    .select([...COLUMNS])
    .where("project_id", "=", projectId)
    .where("country_code", "=", countryCode)
    .where("period", "=", period)
    .orderBy("known_at")
    .orderBy("id")
    .execute();
  return rows.map(avisoOf);
}

/**
 * Records how the writing of an aviso's file went: written; owed by no file of this jurisdiction (its client is
 * governed by another); or tried and failed (tried again later).
 */
export async function markAviso(
  db: Kysely<DB>,
  id: string,
  outcome: "written" | "elsewhere" | "tried",
  at: Date,
): Promise<void> {
  const mark = async (trx: Kysely<DB>) => {
    const marked = await trx
      .updateTable("avisos")
      .set(
        outcome === "written"
          ? { settled_at: at, owed: true }
          : outcome === "elsewhere"
            ? { settled_at: at, owed: false }
            : { tried_at: at },
      )
      .where("id", "=", id)
      .returning(["project_id", "reference"])
      .executeTakeFirst();
    if (marked)
      await writeAudit(trx, {
        projectId: marked.project_id,
        actor: "system",
        action: AVISO_OUTCOME_ACTIONS[outcome],
        target: `avisos/${id}`,
        details: { reference: marked.reference, outcome, at: at.toISOString() },
      });
  };
  await (db.isTransaction ? mark(db) : db.transaction().execute(mark));
}

/** The audit action of each outcome of writing an aviso's file. */
const AVISO_OUTCOME_ACTIONS = {
  written: "aviso.file_written",
  elsewhere: "aviso.not_owed",
  tried: "aviso.file_failed",
} as const;

/** A project's avisos, newest first. */
export async function avisosOfProject(
  db: Kysely<DB>,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<Aviso[]> {
  const rows = await db
    .selectFrom("avisos")
    .select([...COLUMNS])
    .where("project_id", "=", projectId)
    .orderBy("known_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(avisoOf);
}

/** The aviso of a project and jurisdiction with this reference (its file's), if any. */
export async function avisoByReference(
  db: Kysely<DB>,
  projectId: number,
  countryCode: string,
  reference: string,
): Promise<Aviso | undefined> {
  const row = await db
    .selectFrom("avisos")
    .select([...COLUMNS])
    .where("project_id", "=", projectId)
    .where("country_code", "=", countryCode)
    .where("reference", "=", reference)
    .executeTakeFirst();
  return row ? avisoOf(row) : undefined;
}

/** The avisos of the project that answer the alert `alertId` (those naming it among their alerts). */
export async function avisosOfAlert(db: Kysely<DB>, projectId: number, alertId: string): Promise<Aviso[]> {
  const rows = await db
    .selectFrom("avisos")
    .select([...COLUMNS])
    .where("project_id", "=", projectId)
    .where(sql<boolean>`alert_ids @> ${JSON.stringify([alertId])}::jsonb`)
    .execute();
  return rows.map(avisoOf);
}

/** A client's avisos, newest first (the case per client), at most `limit`. */
export async function avisosOfClient(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
  limit: number,
): Promise<Aviso[]> {
  const rows = await db
    .selectFrom("avisos")
    .select([...COLUMNS])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .orderBy("known_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(avisoOf);
}
