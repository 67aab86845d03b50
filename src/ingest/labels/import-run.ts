// Every import runs as one recorded run (table import_runs) around one transaction: the run row is written first
// and committed (so a crashed import shows as "running"), the data in one transaction (so nothing is seen
// half-way), then the run is marked completed or failed with its counts.
import path from "node:path";
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../schema.ts";

export interface RunCounts {
  rows_read: number;
  rows_written: number;
}

export async function recordedImport<T extends RunCounts>(
  db: Kysely<DB>,
  kind: string,
  file: string,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T & { run_id: number }> {
  const run = await db
    .insertInto("import_runs")
    .values({ kind, source: path.resolve(file), status: "running" })
    .returning("id")
    .executeTakeFirstOrThrow();
  try {
    const result = await db.transaction().execute(work);
    await db
      .updateTable("import_runs")
      .set({
        status: "completed",
        rows_read: result.rows_read,
        rows_written: result.rows_written,
        finished_at: new Date(),
      })
      .where("id", "=", run.id)
      .execute();
    return { ...result, run_id: Number(run.id) };
  } catch (error) {
    await db
      .updateTable("import_runs")
      .set({ status: "failed", error: (error as Error).message.slice(0, 4000), finished_at: new Date() })
      .where("id", "=", run.id)
      .execute()
      .catch(() => {});
    throw error;
  }
}
