// The service under test of `npm run eval` (scripts/eval.ts): the real service started from the environment as
// `vigia serve --no-workers` does (the embedded database of VIGIA_DATA_DIR, with its socket bridge for the CLI
// imports; scan-risk needs no worker), plus a project, announced as one JSON line `{"url", "key", "projectId"}`
// on stdout. SIGTERM closes the service and exits 0.
import { createProject } from "../../src/keys/index.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { startService } from "../../src/service.ts";

const service = await startService(loadConfig(), { http: true, workers: false });
const url = await service.listen();
const project = await createProject(service.keys, { name: "Detection benchmark" }, { kind: "cli" });
process.stdout.write(`${JSON.stringify({ url, key: project.key, projectId: project.projectId })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  service.close().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`eval server: error while stopping: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
