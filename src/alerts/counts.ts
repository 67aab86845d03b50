// What /metrics says of the officer's desk (docs/operations.md, "Metrics"): the alerts not closed, by level, and
// how many of them are past their deadline, across every project (a fleet's dashboard names no project).
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

export interface AlertCount {
  level: string;
  open: number;
  overdue: number;
}

export async function countOpenAlerts(db: Kysely<DB>, now: Date): Promise<AlertCount[]> {
  const rows = await db
    .selectFrom("alerts")
    .select([
      "level",
      sql<string>`count(*)`.as("open"),
      sql<string>`count(*) FILTER (WHERE deadline < ${now})`.as("overdue"),
    ])
    .where("status", "<>", "closed")
    .groupBy("level")
    .execute();
  return rows.map((r) => ({ level: r.level, open: Number(r.open), overdue: Number(r.overdue) }));
}
