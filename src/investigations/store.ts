// Reads and writes of investigations. An investigation's status and score are its analysis's, read with it, so
// they can never disagree.
import type { Kysely } from "kysely";
import { progressStatus } from "../analysis/layered/index.ts";
import { capLock } from "../platform/db/advisory.ts";
import { AppError } from "../platform/errors.ts";
import type { DB } from "../schema.ts";
import type { Investigation } from "./schemas.ts";

export type { Investigation };

export interface NewInvestigation {
  id: string;
  projectId: number;
  name: string;
  address: string;
  chainId: number;
  incremental: boolean;
  maxDepth: number;
  analysisId: string;
}

/**
 * Stores a new investigation; 409 when the project has `cap` open ones (VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT),
 * counted under the project's lock.
 */
export async function insertInvestigation(db: Kysely<DB>, i: NewInvestigation, cap: number): Promise<void> {
  await capLock("investigations", i.projectId).execute(db);
  const open = await db
    .selectFrom("investigations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("project_id", "=", i.projectId)
    .where("closed_at", "is", null)
    .executeTakeFirst();
  if (Number(open?.n ?? 0) >= cap)
    throw new AppError(
      "conflict",
      `The project has ${Number(open?.n)} open investigations, its cap (VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT = ${cap}): close those that are done (POST /projects/{projectId}/investigations/{id}/close) or ask the operator to raise the cap`,
    );
  const now = new Date();
  await db
    .insertInto("investigations")
    .values({
      id: i.id,
      project_id: i.projectId,
      name: i.name,
      address: i.address,
      chain_id: i.chainId,
      incremental: i.incremental,
      max_depth: i.maxDepth,
      analysis_id: i.analysisId,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

function select(db: Kysely<DB>, projectId: number) {
  return db
    .selectFrom("investigations as i")
    .leftJoin("analyses as a", "a.id", "i.analysis_id")
    .select([
      "i.id",
      "i.name",
      "i.address",
      "i.chain_id",
      "i.incremental",
      "i.max_depth",
      "i.analysis_id",
      "i.created_at",
      "i.updated_at",
      "i.closed_at",
      "a.status",
      "a.risk_score",
      "a.completed_layers",
      "a.updated_at as analysis_updated_at",
    ])
    .where("i.project_id", "=", projectId);
}

type Row = Awaited<ReturnType<ReturnType<typeof select>["executeTakeFirstOrThrow"]>>;

function toInvestigation(r: Row): Investigation {
  // The record changes when its analysis does (status, score).
  const updated = new Date(
    Math.max(
      new Date(r.updated_at).getTime(),
      r.analysis_updated_at ? new Date(r.analysis_updated_at).getTime() : 0,
    ),
  );
  const status = r.status ? progressStatus(r.status) : "pending";
  return {
    id: r.id,
    name: r.name,
    address: r.address,
    chain_id: r.chain_id,
    incremental: r.incremental,
    max_depth: r.max_depth,
    analysis_id: r.analysis_id ?? "",
    status,
    analysis_status: status,
    risk_score: r.status && (r.completed_layers ?? 0) > 0 ? r.risk_score : null,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: updated.toISOString(),
    closed_at: r.closed_at ? new Date(r.closed_at).toISOString() : null,
  };
}

/** Closes an investigation (kept, no longer open); the first close's time stays. false: no such investigation. */
export async function closeInvestigation(db: Kysely<DB>, projectId: number, id: string): Promise<boolean> {
  const now = new Date();
  const found = await db
    .updateTable("investigations")
    .set((eb) => ({ closed_at: eb.fn.coalesce("closed_at", eb.val(now)), updated_at: now }))
    .where("project_id", "=", projectId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(found.numUpdatedRows) > 0;
}

export async function getInvestigation(
  db: Kysely<DB>,
  projectId: number,
  id: string,
): Promise<Investigation | undefined> {
  const row = await select(db, projectId).where("i.id", "=", id).executeTakeFirst();
  return row ? toInvestigation(row) : undefined;
}

export async function listInvestigations(
  db: Kysely<DB>,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<Investigation[]> {
  const rows = await select(db, projectId)
    .orderBy("i.created_at", "desc")
    .orderBy("i.id")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toInvestigation);
}
