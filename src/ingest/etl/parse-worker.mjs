// Entry of the import's parsing worker thread (parse-worker.ts): a worker does not inherit the tsx loader that
// bin/vigia.js registers on the main thread (nor does `execArgv: ["--import", "tsx"]` apply to the worker's own
// entry), so this plain module registers tsx in the worker, then loads the TypeScript.
import { register } from "tsx/esm/api";

register();
await import("./parse-worker.ts");
