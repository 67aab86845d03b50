// Every import runs as one recorded run (table import_runs) around one transaction: the run row is written first
// and committed (so a crashed import shows as "running"), the data in one transaction (so nothing is seen
// half-way), then the run is marked completed or failed with its counts. The data's commit is audited in its own
// transaction (`import.completed`, in the service's own chain): a list of persons or sanctions, or labels, changes
// who is screened and how, so a version imported is part of the tamper-evident record.
import path from "node:path";
import type { Kysely, Transaction } from "kysely";
import { writeAudit } from "../../projects/index.ts";
import type { DB } from "../../schema.ts";

/** What the audit keeps of an import's result, when the result has it (a list's version and what it replaced). */
const AUDITED_FIELDS = ["status", "version", "list_date", "entries", "replaced", "rolled_back_from"] as const;

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
    const result = await db.transaction().execute(async (trx) => {
      const done = await work(trx);
      const fields = done as unknown as Record<string, unknown>;
      await writeAudit(trx, {
        projectId: null,
        actor: "cli",
        action: "import.completed",
        target: `import:${kind}`,
        details: {
          run: String(run.id),
          kind,
          source: path.resolve(file),
          rows_read: done.rows_read,
          rows_written: done.rows_written,
          ...Object.fromEntries(
            AUDITED_FIELDS.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]]),
          ),
        },
      });
      return done;
    });
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
