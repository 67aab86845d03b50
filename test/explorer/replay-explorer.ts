// The test thread's handle on the replay explorer (replay-server.ts), which runs in a worker thread: its own event
// loop timestamps each request's arrival, unaffected by the embedded database blocking the test thread.
import { Worker } from "node:worker_threads";
import type { History, HistoryTx } from "./history-data.ts";
import type { Fault, FaultMatch, LoggedRequest } from "./replay-server.ts";
import type { Command } from "./replay-worker.ts";

export interface Request extends Omit<LoggedRequest, "query"> {
  query: URLSearchParams;
}

export class ReplayExplorer {
  #nextId = 0;
  readonly #pending = new Map<number, (result: unknown) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly url: string,
  ) {
    worker.on("message", ({ id, result }: { id: number; result: unknown }) => {
      this.#pending.get(id)?.(result);
      this.#pending.delete(id);
    });
  }

  static async start(...histories: History[]): Promise<ReplayExplorer> {
    // The worker runs plain Node: tsx is registered first, then the TypeScript entry is imported.
    const entry = new URL("./replay-worker.ts", import.meta.url).href;
    const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    const worker = new Worker(bootstrap, { eval: true, workerData: { histories } });
    const url = await new Promise<string>((resolve, reject) => {
      worker.once("message", (m: { url: string }) => resolve(m.url));
      worker.once("error", reject);
    });
    return new ReplayExplorer(worker, url);
  }

  /** The Etherscan-compatible endpoint, as an "etherscan" `explorer_api_url` (`url` is the Blockscout root). */
  get etherscanUrl(): string {
    return `${this.url}/api`;
  }

  #send(command: Command): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.worker.postMessage({ id, command });
    });
  }

  /** The next `times` requests that match get `fault` instead of (or, for a delay, before) their answer. */
  async inject(fault: Fault, times = 1, match: FaultMatch = {}): Promise<void> {
    await this.#send({ op: "inject", fault, times, match });
  }

  async clearLog(): Promise<void> {
    await this.#send({ op: "clearLog" });
  }

  /** Clears the log and drops the faults not yet used. */
  async reset(): Promise<void> {
    await this.#send({ op: "reset" });
  }

  async requests(): Promise<Request[]> {
    const logged = (await this.#send({ op: "requests" })) as LoggedRequest[];
    return logged.map((r) => ({ ...r, query: new URLSearchParams(r.query) }));
  }

  async set(options: { resultWindow?: number; legacyFields?: boolean }): Promise<void> {
    await this.#send({ op: "set", ...options });
  }

  /** New activity on top of an address's history. */
  async prependTxs(address: string, txs: HistoryTx[]): Promise<void> {
    await this.#send({ op: "prependTxs", address, txs });
  }

  async close(): Promise<void> {
    await this.#send({ op: "close" });
    await this.worker.terminate();
  }
}
