// The import's parsing worker thread: reads and checks the export's files (read.ts) and posts the batches to the
// main thread (parallel-read.ts), which only writes them. Flow control keeps memory flat: the worker runs at most
// AHEAD batches ahead of what the main thread has taken; it waits for a "more" message before going further.
import { parentPort, workerData } from "node:worker_threads";
import { EtlInputError } from "./errors.ts";
import type { ParseRequest, WorkerMessage } from "./parallel-read.ts";
import { emptyCounts, readExport } from "./read.ts";

/** Batches posted but not yet taken by the main thread. */
const AHEAD = 1;

const port = parentPort;
if (!port) throw new Error("parse-worker.ts runs as a worker thread");
const { files, batchRows, chainKind } = workerData as ParseRequest;

let credits = AHEAD;
let wake: (() => void) | undefined;
port.on("message", () => {
  credits++;
  wake?.();
});

const post = (message: WorkerMessage) => port.postMessage(message);
const counts = emptyCounts();
try {
  for await (const batch of readExport(files, { batchRows, counts, chainKind })) {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    credits--;
    post({ type: "batch", batch, counts });
  }
  post({ type: "done", counts });
} catch (error) {
  const e = error as Error & { code?: string };
  post({
    type: "error",
    counts,
    error:
      error instanceof EtlInputError
        ? { input: true, file: error.file, line: error.line, reason: error.reason }
        : { input: false, name: e.name, message: e.message, code: e.code, stack: e.stack },
  });
}
port.close();
