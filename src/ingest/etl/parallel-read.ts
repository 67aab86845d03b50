// readExport (read.ts) in a worker thread (parse-worker.ts): the CSV parsing and the checks of the next batches
// run on another core while the main thread writes the previous one. On PGlite that matters most: its
// WebAssembly runs on the main thread, so a read on the same thread stops the database meanwhile.
// The batches, the counts (as they were when each batch was made) and the errors (`file:line: reason`) are the
// same as readExport's; leaving the loop early stops the worker.
import { Worker } from "node:worker_threads";
import type { ChainKind } from "../../chains/address/index.ts";
import type { Batch } from "./batch.ts";
import { EtlInputError } from "./errors.ts";
import type { EtlFile } from "./files.ts";
import type { ReadCounts, ReadOptions } from "./read.ts";

export interface ParseRequest {
  files: EtlFile[];
  batchRows: number;
  /** the chain's kind, not its codec: a worker's data must be cloneable */
  chainKind: ChainKind;
}

type ErrorShape =
  | { input: true; file: string; line: number | undefined; reason: string }
  | { input: false; name: string; message: string; code: string | undefined; stack: string | undefined };

export type WorkerMessage =
  | { type: "batch"; batch: Batch; counts: ReadCounts }
  | { type: "done"; counts: ReadCounts }
  | { type: "error"; counts: ReadCounts; error: ErrorShape };

type Event = WorkerMessage | { type: "crash"; error: Error } | { type: "exit"; code: number };

function setCounts(into: ReadCounts, from: ReadCounts): void {
  Object.assign(into.rows, from.rows);
  Object.assign(into.skipped, from.skipped);
  into.nativeTransfers = from.nativeTransfers;
  into.tokenTransfers = from.tokenTransfers;
  into.bridgeTransactions = from.bridgeTransactions;
  Object.assign(into.bitcoin, from.bitcoin);
  into.file = from.file;
}

function rebuild(shape: ErrorShape): Error {
  if (shape.input) return new EtlInputError(shape.file, shape.line, shape.reason);
  const error = new Error(shape.message) as Error & { code?: string };
  error.name = shape.name;
  if (shape.code !== undefined) error.code = shape.code;
  if (shape.stack !== undefined) error.stack = shape.stack;
  return error;
}

/** Yields batches of checked rows, read in a worker thread; `counts` is kept up to date as batches come. */
export async function* readExportInWorker(files: EtlFile[], options: ReadOptions): AsyncGenerator<Batch> {
  const request: ParseRequest = {
    files: files.map((f) => ({ ...f })),
    batchRows: options.batchRows,
    chainKind: options.chainKind ?? "evm",
  };
  const worker = new Worker(new URL("./parse-worker.mjs", import.meta.url), { workerData: request });
  const events: Event[] = [];
  let wake: (() => void) | undefined;
  const push = (event: Event) => {
    events.push(event);
    wake?.();
  };
  worker.on("message", (message: WorkerMessage) => push(message));
  worker.on("error", (error: Error) => push({ type: "crash", error }));
  worker.on("exit", (code: number) => push({ type: "exit", code }));
  try {
    for (;;) {
      while (events.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const event = events.shift() as Event;
      switch (event.type) {
        case "batch":
          setCounts(options.counts, event.counts);
          worker.postMessage("more");
          yield event.batch;
          break;
        case "done":
          setCounts(options.counts, event.counts);
          return;
        case "error":
          setCounts(options.counts, event.counts);
          throw rebuild(event.error);
        case "crash":
          throw event.error;
        case "exit":
          throw new Error(`the import's reading thread stopped (exit code ${event.code})`);
      }
    }
  } finally {
    await worker.terminate();
  }
}
