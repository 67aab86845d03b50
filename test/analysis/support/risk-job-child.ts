// A Vigía worker process for the test that kills a risk job mid-run (`node bin/run-ts.js` this file): the real
// service (no HTTP, no workers of its own) and a worker queue running the real risk-job handler, whose expansion
// can be made to hang in the middle of a job (an explorer history provider that never answers).
// Environment: CHILD_DATABASE_URL + CHILD_SCHEMA (PostgreSQL) or CHILD_DATA_DIR (PGlite); CHILD_CHAINS;
// CHILD_MODE `hang`, `finish`, `flood` or `finish-all`; CHILD_SEND=1 writes the devnet world and a project, and
// starts one risk job. `flood` (no workers) writes them and then starts risk jobs one after another until killed;
// `finish-all` waits until every risk job's row is finished.
// Prints JSON lines: {"event":"sent","id"}, {"event":"hanging"}, {"event":"ready"}, {"event":"finished","status"},
// {"event":"all-finished","statuses"}.

import type { AnalysisContext } from "../../../src/analysis/index.ts";
import { registerRiskJobs, startRiskJob } from "../../../src/analysis/index.ts";
import { createProject } from "../../../src/keys/index.ts";
import { JobQueue } from "../../../src/platform/jobs/index.ts";
import { devnetWorld, writeWorldToStore } from "../../../src/worlds/index.ts";
import { say, startChildService } from "../../support/child-service.ts";

const env = process.env;

const service = await startChildService();
const jobs = new JobQueue(service.database, {
  workers: env.CHILD_MODE !== "flood",
  schema: env.CHILD_SCHEMA ?? "pgboss",
  logLevel: "warn",
  pollingIntervalSeconds: 0.5,
  retryDelayMaxSeconds: 1,
  superviseIntervalSeconds: 1,
});
const ctx: AnalysisContext = {
  db: service.database.db,
  registry: service.registry,
  jobs,
  ...(env.CHILD_MODE === "hang"
    ? {
        expansion: {
          budget: { maxMillis: 600_000 },
          history: {
            hasExplorer: () => true,
            ensureCovered: () => {
              say({ event: "hanging" });
              return new Promise(() => {});
            },
          },
        },
      }
    : {}),
};
await registerRiskJobs(ctx);
await jobs.start();

const world = devnetWorld();
if (env.CHILD_MODE === "flood") {
  // The world once (a later flood on the same database finds its project).
  const existing = await ctx.db
    .selectFrom("projects")
    .select("id")
    .where("name", "=", "Flood")
    .limit(1)
    .executeTakeFirst();
  if (!existing) await writeWorldToStore(ctx.db, world, 1);
  const project = await createProject(service.keys, { name: "Flood" }, { kind: "cli" });
  const subject = world.cases.find((c) => c.pattern === "sanctions_exposure")!.subject;
  // Until the test kills this process: the kill lands somewhere inside one of these calls.
  for (;;) {
    const id = await startRiskJob(ctx, {
      projectId: project.projectId,
      address: subject,
      chainId: 1,
    }).catch((error: Error) => `refused: ${error.message}`);
    say({ event: "sent", id });
  }
}
if (env.CHILD_SEND === "1") {
  await writeWorldToStore(ctx.db, world, 1);
  const project = await createProject(service.keys, { name: "Crash" }, { kind: "cli" });
  const subject = world.cases.find(
    (c) => c.pattern === "sanctions_exposure" && c.id.endsWith("-d1"),
  )!.subject;
  say({
    event: "sent",
    id: await startRiskJob(ctx, { projectId: project.projectId, address: subject, chainId: 1 }),
  });
}
say({ event: "ready", pid: process.pid });

if (env.CHILD_MODE === "finish") {
  const id = env.CHILD_WAIT_FOR as string;
  for (;;) {
    const row = await ctx.db
      .selectFrom("analyses")
      .select(["status", "risk_level"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (row?.status === "completed" || row?.status === "failed") {
      say({ event: "finished", status: row.status, level: row.risk_level });
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

if (env.CHILD_MODE === "finish-all") {
  for (;;) {
    const rows = await ctx.db
      .selectFrom("analyses")
      .select(["status", "job_id"])
      .where("kind", "=", "job")
      .execute();
    if (rows.every((r) => r.status === "completed" || r.status === "failed")) {
      say({
        event: "all-finished",
        statuses: rows.map((r) => r.status),
        withoutJob: rows.filter((r) => r.job_id === null).length,
      });
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

process.on("SIGTERM", () => {
  void jobs
    .stop()
    .then(() => service.close())
    .then(() => process.exit(0));
});
