// Reads and writes of investigations. An investigation's status and score are its analysis's, read with it, so
// they can never disagree.
import type { Kysely } from "kysely";
import { progressStatus } from "../analysis/layered/index.ts";
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

export async function insertInvestigation(db: Kysely<DB>, i: NewInvestigation): Promise<void> {
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
  return {
    id: r.id,
    name: r.name,
    address: r.address,
    chain_id: r.chain_id,
    incremental: r.incremental,
    max_depth: r.max_depth,
    analysis_id: r.analysis_id ?? "",
    status: r.status ? progressStatus(r.status) : "pending",
    risk_score: r.status && (r.completed_layers ?? 0) > 0 ? r.risk_score : null,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: updated.toISOString(),
  };
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
