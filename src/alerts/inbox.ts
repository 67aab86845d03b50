// The inbox (GET /projects/{projectId}/alerts): every alert of the project, filtered, paged, the overdue ones first
// across all of them (an overdue alert older than the newest hundred is on the first page), the most overdue
// first, then the others newest first; with the number of alerts the filters select. Two bounded reads for a page:
// the overdue part by the open alerts' deadlines (alerts_open_deadline_idx), the rest by id (alerts_inbox_idx).
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from "kysely";
import type { Lang } from "../messages/index.ts";
import type { DB } from "../schema.ts";
import { alertViews } from "./read.ts";
import type { AlertFilter, AlertView } from "./schemas.ts";

type Where = ExpressionBuilder<DB, "alerts">;

/** An `assignee` filter of digits is a person (stored `user:<id>`); anything else a key's label (deprecated). */
export const assigneeKey = (assignee: string) => (/^\d+$/.test(assignee) ? `user:${assignee}` : assignee);

function filters(eb: Where, projectId: number, f: AlertFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb("project_id", "=", projectId)];
  if (f.status) all.push(eb("status", "=", f.status));
  if (f.level) all.push(eb("level", "=", f.level));
  if (f.cause) all.push(eb("cause", "=", f.cause));
  if (f.assignee) all.push(eb("assignee", "=", assigneeKey(f.assignee)));
  if (f.client) all.push(eb("user_id", "=", f.client));
  if (f.dueBefore) all.push(eb("deadline", "<", new Date(f.dueBefore)));
  return eb.and(all);
}

const overdue = (eb: Where, now: Date) =>
  eb.and([eb("status", "<>", "closed"), eb("deadline", "is not", null), eb("deadline", "<", now)]);

export interface InboxPage {
  alerts: AlertView[];
  /** how many alerts the filters select, on every page */
  total: number;
  /** how many of them are overdue (all on the first pages) */
  overdue: number;
}

export async function listInbox(
  db: Kysely<DB>,
  projectId: number,
  filter: AlertFilter,
  now: Date,
  /** the language of each alert's `reasonText` */
  lang: Lang,
): Promise<InboxPage> {
  const limit = filter.limit ?? 20;
  const offset = filter.offset ?? 0;
  const counts = await db
    .selectFrom("alerts")
    .select((eb) => [
      eb.fn.countAll<string>().as("total"),
      sql<string>`count(*) FILTER (WHERE ${overdue(eb, now)})`.as("overdue"),
    ])
    .where((eb) => filters(eb, projectId, filter))
    .executeTakeFirstOrThrow();
  const total = Number(counts.total);
  const late = Number(counts.overdue);
  const rows = [];
  if (offset < late)
    rows.push(
      ...(await db
        .selectFrom("alerts")
        .selectAll()
        .where((eb) => eb.and([filters(eb, projectId, filter), overdue(eb, now)]))
        .orderBy("deadline", "asc")
        .orderBy("id", "desc")
        .limit(Math.min(limit, late - offset))
        .offset(offset)
        .execute()),
    );
  const rest = limit - rows.length;
  if (rest > 0 && offset + rows.length < total)
    rows.push(
      ...(await db
        .selectFrom("alerts")
        .selectAll()
        .where((eb) => eb.and([filters(eb, projectId, filter), eb.not(overdue(eb, now))]))
        .orderBy("id", "desc")
        .limit(rest)
        .offset(Math.max(0, offset - late))
        .execute()),
    );
  return { alerts: await alertViews(db, projectId, rows, now, lang), total, overdue: late };
}
