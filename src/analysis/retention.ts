// Retention of finished analyses (docs/api.md, "Retention"). Scans, risk jobs and layered analyses finished more
// than the retention period ago are deleted, their layers with them (ON DELETE CASCADE), a batch at a time so that
// no statement holds many locks or runs long. An analysis an investigation points at is kept as long as the
// investigation: it is the investigation's content. Queued and running analyses are never deleted here.

import type { Kysely } from "kysely";
import { sql } from "kysely";
import type pino from "pino";
import { PollingLoop } from "../platform/polling.ts";
import type { DB } from "../schema.ts";

const BATCH = 500;
const EVERY_MS = 3_600_000;

/** Deletes up to `batch` analyses finished before `cutoff` that no investigation points at; returns how many. */
export async function pruneAnalyses(db: Kysely<DB>, cutoff: Date, batch = BATCH): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    DELETE FROM analyses WHERE id IN (
      SELECT a.id FROM analyses a
      WHERE a.status IN ('completed', 'failed') AND a.completed_at < ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM investigations i WHERE i.analysis_id = a.id)
      ORDER BY a.completed_at
      LIMIT ${batch})
    RETURNING id`.execute(db);
  return rows.length;
}

/** Prunes in the background (processes with workers): now, then hourly, batch after batch while there is more. */
export function startAnalysisPruning(
  db: Kysely<DB>,
  retentionDays: number,
  log: pino.Logger,
  now: () => number = Date.now,
): PollingLoop {
  const loop = new PollingLoop(
    () => pruneAnalyses(db, new Date(now() - retentionDays * 86_400_000)),
    BATCH,
    EVERY_MS,
    (error) => log.error({ err: error }, `analysis pruning: ${(error as Error).message}`),
  );
  loop.start();
  return loop;
}
