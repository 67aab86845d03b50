// A Vigía worker process for the test that kills an incremental analysis mid-run (`node bin/run-ts.js` this
// file): the real service (no HTTP) and a worker queue running the real layer jobs. In `hang` mode the explorer
// history provider (the network edge) never answers once two layers are stored, so the process is killed with
// the analysis half done; in `finish` mode it answers at once.
// Environment: CHILD_DATABASE_URL + CHILD_SCHEMA (PostgreSQL) or CHILD_DATA_DIR (PGlite); CHILD_CHAINS;
// CHILD_MODE `hang` or `finish`; CHILD_SEND=1 writes the devnet world and starts one incremental investigation;
// CHILD_WAIT_FOR=<analysisId> (finish) waits for it, then runs the same analysis uninterrupted in another
// project as the reference.
// Prints JSON lines: {"event":"sent",...}, {"event":"hanging","layers":[...]}, {"event":"finished",...}.
import { type AnalysisContext, registerLayerJobs } from "../../../src/analysis/index.ts";
import { writeFetch } from "../../../src/chains/explorer/store.ts";
import { createInvestigation } from "../../../src/investigations/index.ts";
import { createProject } from "../../../src/keys/index.ts";
import { JobQueue } from "../../../src/platform/jobs/index.ts";
import { devnetWorld, writeWorldToStore } from "../../../src/worlds/index.ts";
import { say, startChildService } from "../../support/child-service.ts";

const env = process.env;
export const CRASH_DEPTH = 6;

const service = await startChildService();
const db = service.database.db;
const jobs = new JobQueue(service.database, {
  workers: true,
  schema: env.CHILD_SCHEMA ?? "pgboss",
  logLevel: "warn",
  pollingIntervalSeconds: 0.5,
  retryDelayMaxSeconds: 1,
  superviseIntervalSeconds: 1,
});

let watched: string | undefined;
const bodies = async (analysisId: string) =>
  (
    await db
      .selectFrom("analysis_layers")
      .select("body")
      .where("analysis_id", "=", analysisId)
      .orderBy("layer")
      .execute()
  ).map((r) => r.body);

const hang = env.CHILD_MODE === "hang";
const ctx: AnalysisContext = {
  db,
  registry: service.registry,
  jobs,
  expansion: {
    ...(hang ? { budget: { maxMillis: 600_000 } } : {}),
    history: {
      hasExplorer: () => true,
      ensureCovered: async (chainId, address) => {
        if (hang && watched) {
          const row = await db
            .selectFrom("analyses")
            .select("completed_layers")
            .where("id", "=", watched)
            .executeTakeFirst();
          if ((row?.completed_layers ?? 0) >= 2) {
            say({ event: "hanging", layers: await bodies(watched) });
            return new Promise(() => {});
          }
        }
        // As the explorer cache does: a record of the fetch, which the verdict's coverage reads (src/ledger).
        await writeFetch(db, {
          chainId,
          address,
          fetchedAt: new Date(),
          transferCount: 0,
          coveredFrom: null,
          coveredTo: null,
          truncated: false,
          source: "stand-in",
        });
        return { truncated: false };
      },
    },
  },
};
await registerLayerJobs(ctx);

const world = devnetWorld();
const subject = world.cases.find((c) => c.pattern === "peel_chain" && c.positive)!.subject;
if (env.CHILD_SEND === "1") {
  await writeWorldToStore(db, world, 1);
  const project = await createProject(service.keys, { name: "Crash" }, { kind: "cli" });
  const investigation = await createInvestigation(ctx, {
    projectId: project.projectId,
    name: "killed mid-run",
    address: subject,
    chainId: 1,
    incremental: true,
    maxDepth: CRASH_DEPTH,
  });
  watched = investigation.analysis_id;
  say({ event: "sent", analysisId: watched });
}
await jobs.start();
say({ event: "ready", pid: process.pid });

async function waitFor(analysisId: string) {
  for (;;) {
    const row = await db
      .selectFrom("analyses")
      .select(["status", "completed_layers"])
      .where("id", "=", analysisId)
      .executeTakeFirst();
    if (row?.status === "completed" || row?.status === "failed") return row.status;
    await new Promise((r) => setTimeout(r, 200));
  }
}

if (env.CHILD_MODE === "finish") {
  const resumed = env.CHILD_WAIT_FOR as string;
  const status = await waitFor(resumed);
  const other = await createProject(service.keys, { name: "Reference" }, { kind: "cli" });
  const reference = await createInvestigation(ctx, {
    projectId: other.projectId,
    name: "uninterrupted",
    address: subject,
    chainId: 1,
    incremental: true,
    maxDepth: CRASH_DEPTH,
  });
  const referenceStatus = await waitFor(reference.analysis_id);
  say({
    event: "finished",
    status,
    referenceStatus,
    resumed: await bodies(resumed),
    reference: await bodies(reference.analysis_id),
  });
}

process.on("SIGTERM", () => {
  void jobs
    .stop()
    .then(() => service.close())
    .then(() => process.exit(0));
});
