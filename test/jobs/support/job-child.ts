// A Vigía worker process (the real service, workers on, no HTTP) with one test queue, for the test that kills it
// in the middle of a job (`node bin/run-ts.js` this file).
// Environment: CHILD_DATABASE_URL + CHILD_SCHEMA (PostgreSQL) or CHILD_DATA_DIR (PGlite); CHILD_CHAINS (a chains
// file); CHILD_MODE `hang` (the handler never returns) or `finish`; CHILD_SEND=1 queues one job at start.
// Prints JSON lines: {"event":"ready"}, {"event":"sent","id"}, {"event":"started","id","retryCount","pid"}.
import { say, startChildService } from "../../support/child-service.ts";

export const CRASH_QUEUE = "test.crash";

const env = process.env;

const service = await startChildService({
  workers: true,
  jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1, retryDelayMaxSeconds: 1 },
});
// No heartbeat: a dead worker's job is found by its expiry (4 s) on PostgreSQL, at the next start on PGlite.
await service.jobs.define(CRASH_QUEUE, {
  expireInSeconds: 4,
  heartbeatSeconds: null,
  retryLimit: 2,
  retryDelaySeconds: 0,
  retryBackoff: false,
});
await service.jobs.work<{ n: number }, { doubled: number; finishedBy: number; retryCount: number }>(
  CRASH_QUEUE,
  async (job) => {
    say({ event: "started", id: job.id, retryCount: job.retryCount, pid: process.pid });
    if (env.CHILD_MODE === "hang") await new Promise(() => {});
    return { doubled: job.data.n * 2, finishedBy: process.pid, retryCount: job.retryCount };
  },
);
if (env.CHILD_SEND === "1") say({ event: "sent", id: await service.jobs.send(CRASH_QUEUE, { n: 21 }) });
say({ event: "ready", pid: process.pid });

process.on("SIGTERM", () => {
  void service.close().then(() => process.exit(0));
});
