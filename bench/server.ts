// The real service as a child process for the benchmarks and `npm run eval`: starts it from the environment (as
// `vigia serve --no-workers` does), in the PostgreSQL schema named by BENCH_SCHEMA when given, creates a project (or
// an admin key of the project BENCH_PROJECT_ID, which the runner made to import that project's own lists), and prints one JSON line `{"url", "key", "projectId", "database"}` on stdout for the runner. SIGTERM closes the
// service and exits 0 (so that `node --cpu-prof` can write its profile).
import { createKey, createProject } from "../src/keys/index.ts";
import { loadConfig } from "../src/platform/config.ts";
import { startService } from "../src/service.ts";

const config = loadConfig();
const schema = process.env.BENCH_SCHEMA || undefined;
const service = await startService(config, { http: true, workers: false, ...(schema ? { schema } : {}) });
const url = await service.listen();
const given = Number(process.env.BENCH_PROJECT_ID || 0);
const project =
  given > 0
    ? {
        projectId: given,
        key: (await createKey(service.keys, given, { label: "bench", role: "admin" }, { kind: "cli" })).key,
      }
    : await createProject(service.keys, { name: "Bench project" }, { kind: "cli" });
process.stdout.write(
  `${JSON.stringify({ url, key: project.key, projectId: project.projectId, database: service.database.kind })}\n`,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  service.close().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`bench server: error while stopping: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
