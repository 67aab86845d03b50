// The one place the exchange_operations table is written and read: a request's operations inserted once each (the
// integrator's `operationId` is the key: the same operation again changes nothing, another content under the same id
// is a conflict naming the difference, and then nothing of the request is written), a client's operations read
// back, and the operations the monitoring still has to judge.
import { type Kysely, sql } from "kysely";
import { AppError } from "../platform/errors.ts";
import type { Valuation } from "../regulation/index.ts";
import type { DB } from "../schema.ts";
import { canonicalJson, differences } from "./items.ts";
import type { HeldForLaw } from "./law-operations.ts";
import type { OperationItem, StoredOperationView } from "./schemas.ts";

export interface IngestCount {
  received: number;
  created: number;
  unchanged: number;
}

const show = (v: unknown) => (v === undefined ? "absent" : JSON.stringify(v));

/** Inserts the request's operations in one transaction; throws a 409 when one is held with another content. */
export async function insertOperations(
  db: Kysely<DB>,
  projectId: number,
  items: readonly OperationItem[],
  received: number,
  now: Date,
  /** where each operation was in the request (a repeated item is sent once): the 409's paths name it */
  indexOf: (operationId: string) => number = (id) => items.findIndex((o) => o.operationId === id),
): Promise<IngestCount> {
  return db.transaction().execute(async (trx) => {
    // In the order of their ids: two requests with overlapping operations take the unique index's locks in the same
    // order, and never deadlock on one another.
    const ordered = [...items].sort((a, b) =>
      a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0,
    );
    const inserted = await trx
      .insertInto("exchange_operations")
      .values(
        ordered.map((o) => ({
          project_id: projectId,
          operation_id: o.operationId,
          user_id: o.userId,
          kind: o.kind,
          at: o.at,
          body: JSON.stringify(o),
          received_at: now,
        })),
      )
      .onConflict((c) => c.columns(["project_id", "operation_id"]).doNothing())
      .returning("operation_id")
      .execute();
    const created = new Set(inserted.map((r) => r.operation_id));
    const held = items.filter((o) => !created.has(o.operationId));
    if (held.length > 0) {
      const rows = await trx
        .selectFrom("exchange_operations")
        .select(["operation_id", "body"])
        .where("project_id", "=", projectId)
        .where(
          "operation_id",
          "in",
          held.map((o) => o.operationId),
        )
        .execute();
      const before = new Map(rows.map((r) => [r.operation_id, r.body]));
      const conflicts = held.flatMap((o) => {
        const old = before.get(o.operationId);
        if (old === undefined || canonicalJson(old) === canonicalJson(o)) return [];
        const index = indexOf(o.operationId);
        return differences(old, o).map((d) => ({
          path: `/operations/${index}${d.path}`,
          message: `operation ${o.operationId} is held with ${show(d.was)} here; this request says ${show(d.now)}. An operation cannot change: send a correction as a new operation`,
        }));
      });
      if (conflicts.length > 0)
        throw new AppError(
          "conflict",
          "Operations already held with another content: nothing of this request was written",
          { details: conflicts.slice(0, 100) },
        );
    }
    return { received, created: created.size, unchanged: received - created.size };
  });
}

/** A client's operations in [from, to), oldest first, at most `limit`. */
export async function clientOperations(
  db: Kysely<DB>,
  q: { projectId: number; userId: string; from?: Date; to?: Date; limit: number },
): Promise<StoredOperationView[]> {
  let query = db
    .selectFrom("exchange_operations")
    .select(["body", "received_at", "checked_at", "unjudged"])
    .where("project_id", "=", q.projectId)
    .where("user_id", "=", q.userId);
  if (q.from) query = query.where("at", ">=", q.from);
  if (q.to) query = query.where("at", "<", q.to);
  const rows = await query.orderBy("at").orderBy("id").limit(q.limit).execute();
  return rows.map((r) => ({
    operation: (typeof r.body === "string" ? JSON.parse(r.body) : r.body) as OperationItem,
    receivedAt: new Date(r.received_at).toISOString(),
    checkedAt: r.checked_at ? new Date(r.checked_at).toISOString() : null,
    unjudged: r.unjudged ?? [],
  }));
}

/** Whether the project holds any operation of the client. */
export async function hasOperations(db: Kysely<DB>, projectId: number, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("exchange_operations")
    .select("id")
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A client's operation as the rules read it: the item, and whether the monitoring judged it already. */
export interface HeldOperation {
  id: string;
  item: OperationItem;
  checked: boolean;
}

/** A client's operations concluded in [from, to], oldest first (the window the rules look at). */
export async function operationsBetween(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
  from: Date,
  to: Date,
): Promise<HeldOperation[]> {
  const rows = await db
    .selectFrom("exchange_operations")
    .select(["id", "body", "checked_at"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where("at", ">=", from)
    .where("at", "<=", to)
    .orderBy("at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    item: (typeof r.body === "string" ? JSON.parse(r.body) : r.body) as OperationItem,
    checked: r.checked_at !== null,
  }));
}

/** Marks operations judged, with the rules that could not be. */
export async function markChecked(
  trx: Kysely<DB>,
  ids: readonly string[],
  unjudged: readonly string[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable("exchange_operations")
    .set({ checked_at: now, unjudged: unjudged.length > 0 ? [...unjudged] : null })
    .where("id", "in", [...ids])
    .execute();
}

/** Which operations the law's readers ask for. */
export interface HeldQuery {
  projectId: number;
  userId?: string;
  /** these rows only (their ids) */
  ids?: readonly string[];
  /** these operations only (the integrator's ids) */
  operationIds?: readonly string[];
  from?: Date;
  to?: Date;
  status: "checked" | "recorded";
}

/**
 * The project's operations concluded in [from, to) as the law reads them (with their recorded verdicts and
 * valuations), oldest first; of one client, or all. `checked`: only those the monitor judged (what the reports
 * file); `recorded`: also those waiting.
 */
export async function heldForLaw(db: Kysely<DB>, q: HeldQuery): Promise<HeldForLaw[]> {
  if (q.ids?.length === 0 || q.operationIds?.length === 0) return [];
  let query = db
    .selectFrom("exchange_operations")
    .select(["id", "body", "laws", "law_unjudged", "valuations"])
    .where("project_id", "=", q.projectId)
    .where("kind", "<>", "custody_snapshot");
  if (q.userId !== undefined) query = query.where("user_id", "=", q.userId);
  if (q.ids) query = query.where("id", "in", [...q.ids]);
  if (q.operationIds) query = query.where("operation_id", "in", [...q.operationIds]);
  if (q.from) query = query.where("at", ">=", q.from);
  if (q.to) query = query.where("at", "<", q.to);
  if (q.status === "checked") query = query.where("checked_at", "is not", null);
  const rows = await query.orderBy("user_id").orderBy("at").orderBy("id").execute();
  return rows.map((r) => ({
    id: String(r.id),
    item: (typeof r.body === "string" ? JSON.parse(r.body) : r.body) as OperationItem,
    laws: r.laws,
    unjudged: r.law_unjudged,
    valuations: (typeof r.valuations === "string" ? JSON.parse(r.valuations) : r.valuations) as Record<
      string,
      Valuation
    > | null,
  }));
}

/** An operation that met one of the rules asked for, as the reports look for the avisos it calls for. */
export interface MetOperation {
  id: string;
  operationId: string;
  userId: string;
  at: Date;
  checkedAt: Date;
  laws: string[];
  /** a crypto movement's transaction on chain, when the integrator gave it */
  chainTxHash: string | null;
}

/**
 * The project's operations that met one of `rules`, judged in [checkedFrom, now) (the 24-hour avisos look back a
 * bounded window) or concluded in [from, to) (a month's), oldest first. Read through the index of operations that
 * met a law (`laws <> '{}'`), which most never do.
 */
export async function operationsMeeting(
  db: Kysely<DB>,
  q: { projectId: number; rules: readonly string[]; checkedFrom?: Date; from?: Date; to?: Date },
): Promise<MetOperation[]> {
  if (q.rules.length === 0) return [];
  let query = db
    .selectFrom("exchange_operations")
    .select(["id", "operation_id", "user_id", "at", "checked_at", "laws"])
    .select(sql<string | null>`body->>'txHash'`.as("chain_tx_hash"))
    .where("project_id", "=", q.projectId)
    .where("checked_at", "is not", null)
    .where(sql<boolean>`laws <> '{}'`)
    .where(sql<boolean>`laws && ${[...q.rules]}::text[]`);
  if (q.checkedFrom) query = query.where("checked_at", ">=", q.checkedFrom);
  if (q.from) query = query.where("at", ">=", q.from);
  if (q.to) query = query.where("at", "<", q.to);
  const rows = await query.orderBy("checked_at").orderBy("id").execute();
  return rows.map((r) => ({
    id: String(r.id),
    operationId: r.operation_id,
    userId: r.user_id,
    at: new Date(r.at),
    checkedAt: new Date(r.checked_at as Date | string),
    laws: r.laws ?? [],
    chainTxHash: r.chain_tx_hash,
  }));
}

/** An operation's law verdict and the valuations it was judged at. */
export interface LawVerdictRow {
  id: string;
  laws: readonly string[];
  unjudged: readonly string[];
  valuations: Record<string, Valuation>;
}

/** Records the operations' law verdicts, in one statement, in the caller's transaction. */
export async function recordLaws(trx: Kysely<DB>, verdicts: readonly LawVerdictRow[]): Promise<void> {
  if (verdicts.length === 0) return;
  const rows = verdicts.map((v) => ({
    id: v.id,
    laws: v.laws,
    unjudged: v.unjudged.length > 0 ? v.unjudged : null,
    valuations: v.valuations,
  }));
  await sql`
    UPDATE exchange_operations e SET
      laws = ARRAY(SELECT jsonb_array_elements_text(v.laws)),
      law_unjudged = CASE WHEN v.unjudged IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(v.unjudged)) END,
      valuations = v.valuations
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id bigint, laws jsonb, unjudged jsonb, valuations jsonb)
    WHERE e.id = v.id`.execute(trx);
}
