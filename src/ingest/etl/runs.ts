// The record of each `import etl` run (import_runs, kind 'etl', plus etl_import_runs: host and pid), and the
// clean-up of runs whose process was killed: a later run marks them failed.
//
// A run is known dead when: on PostgreSQL, its advisory lock (held by the live run's connection for its whole
// life) can be taken; on PGlite owned by this process, always (one process owns the data dir); behind the socket
// bridge, when its pid (on this host: the socket is local) no longer exists.
import os from "node:os";
import type { DatabaseKind } from "../../platform/db/open.ts";
import type { Conn } from "./connection.ts";

/**
 * The advisory lock key of a run. Advisory locks are database-wide while run ids are per schema, so the key
 * includes the schema: two schemas (tenants, test files) never take each other's run for alive.
 */
const RUN_LOCK_KEY = "hashtextextended(current_schema() || '/vigia-etl-run/' || $1::text, 0)";

export interface RunCounts {
  rowsRead: number;
  rowsWritten: number;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function isDead(
  conn: Conn,
  kind: DatabaseKind,
  run: { id: string; host: string | null; pid: number | null },
) {
  if (kind === "pglite") return true;
  if (kind === "postgres") {
    const [row] = await conn.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${RUN_LOCK_KEY}) AS ok`, [
      run.id,
    ]);
    if (row?.ok) await conn.query(`SELECT pg_advisory_unlock(${RUN_LOCK_KEY})`, [run.id]);
    return Boolean(row?.ok);
  }
  return run.host === os.hostname() && run.pid !== null && !processAlive(run.pid);
}

/** Marks killed runs failed (and drops what they left); returns their ids. */
export async function cleanUpDeadRuns(conn: Conn, kind: DatabaseKind): Promise<string[]> {
  const running = await conn.query<{ id: string; host: string | null; pid: number | null }>(
    `SELECT r.id::text AS id, e.host, e.pid FROM import_runs r LEFT JOIN etl_import_runs e ON e.run_id = r.id
     WHERE r.kind = 'etl' AND r.status = 'running' ORDER BY r.id`,
  );
  const dead: string[] = [];
  for (const run of running) {
    if (!(await isDead(conn, kind, run))) continue;
    // Through the socket bridge the killed run's TEMP table of block times lives on in the service's session.
    await conn.query(`DROP TABLE IF EXISTS pg_temp.etl_block_times_${Number(run.id)}`);
    await conn.query(
      `UPDATE import_runs SET status = 'failed', finished_at = now(),
         error = 'interrupted: its process stopped before it finished (a later run cleaned up)'
       WHERE id = $1 AND status = 'running'`,
      [run.id],
    );
    dead.push(run.id);
  }
  return dead;
}

export async function startRun(
  conn: Conn,
  kind: DatabaseKind,
  chainId: number,
  source: string,
): Promise<string> {
  const [run] = await conn.query<{ id: string }>(
    `INSERT INTO import_runs (kind, source, status) VALUES ('etl', $1, 'running') RETURNING id::text AS id`,
    [source],
  );
  const id = (run as { id: string }).id;
  await conn.query("INSERT INTO etl_import_runs (run_id, chain_id, host, pid) VALUES ($1, $2, $3, $4)", [
    id,
    chainId,
    os.hostname(),
    process.pid,
  ]);
  if (kind === "postgres") await conn.query(`SELECT pg_advisory_lock(${RUN_LOCK_KEY})`, [id]);
  return id;
}

export async function progressRun(conn: Conn, id: string, counts: RunCounts): Promise<void> {
  await conn.query("UPDATE import_runs SET rows_read = $2, rows_written = $3 WHERE id = $1", [
    id,
    counts.rowsRead,
    counts.rowsWritten,
  ]);
}

/** Marks the run completed (in the data's transaction, where there is one) or failed. */
export async function finishRun(
  conn: Conn,
  id: string,
  outcome: { status: "completed" | "failed"; error?: string } & RunCounts,
): Promise<void> {
  await conn.query(
    `UPDATE import_runs SET status = $2, rows_read = $3, rows_written = $4, error = $5, finished_at = now()
     WHERE id = $1`,
    [id, outcome.status, outcome.rowsRead, outcome.rowsWritten, outcome.error?.slice(0, 4000) ?? null],
  );
}

/** Lets go of the run's advisory lock (PostgreSQL), on the connection that took it. */
export async function releaseRun(conn: Conn, kind: DatabaseKind, id: string): Promise<void> {
  if (kind === "postgres") await conn.query(`SELECT pg_advisory_unlock(${RUN_LOCK_KEY})`, [id]);
}
