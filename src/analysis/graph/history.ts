// Address histories from a chain's explorer, fetched into the store before a layer reads it. The expansion only
// knows this interface: src/chains/explorer's ExplorerHistory satisfies it, tests pass a fake, and without one
// the expansion reads the store as it is.
import type { FetchRecord } from "../../ledger/index.ts";

export interface HistoryProvider {
  /** Whether the chain has an explorer to fetch histories from. */
  hasExplorer(chainId: number): boolean;
  /**
   * Makes sure the store holds the address's transfers in the window (fetching them when it does not), and gives
   * the record of the fetch the store then holds (the verdict's coverage rests on it) when it has one.
   */
  ensureCovered(
    chainId: number,
    address: string,
    window: { from?: Date | undefined; to?: Date | undefined },
    signal?: AbortSignal,
  ): Promise<{ truncated: boolean; record?: FetchRecord }>;
}

export interface HistoryReport {
  /** addresses whose history the provider made sure of */
  ensured: number;
  /** the explorer had more than its caps allow: the window's oldest part may be missing */
  incomplete: string[];
  /** the provider failed for these addresses; their layer used what the store already had */
  failed: { address: string; error: string }[];
  /** not attempted: the time budget ran out first */
  skipped: string[];
  /** the fetch records the store holds of the addresses made sure of */
  records: FetchRecord[];
}

export const emptyHistoryReport = (): HistoryReport => ({
  ensured: 0,
  incomplete: [],
  failed: [],
  skipped: [],
  records: [],
});

/**
 * Calls `ensureCovered` for every address, `concurrency` at a time, until `deadline` (epoch ms, per `now`):
 * calls in flight then are aborted and the rest skipped. Never throws: failures are reported.
 */
export async function ensureHistories(
  provider: HistoryProvider,
  chainId: number,
  addresses: string[],
  window: { from?: number | undefined; to?: number | undefined },
  opts: { concurrency: number; deadline: number; now: () => number; signal?: AbortSignal | undefined },
): Promise<HistoryReport & { timedOut: boolean }> {
  const report = emptyHistoryReport();
  const range = {
    from: window.from !== undefined ? new Date(window.from * 1000) : undefined,
    to: window.to !== undefined ? new Date(window.to * 1000) : undefined,
  };
  const controller = new AbortController();
  const remaining = opts.deadline - opts.now();
  if (remaining <= 0) return { ...report, skipped: [...addresses], timedOut: true };
  const timer = setTimeout(() => controller.abort(new Error("time budget spent")), remaining);
  // Work taken away from the caller stops the fetches in flight too (the caller then throws the signal's reason).
  const stop = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", stop, { once: true });
  const results: ("ok" | "incomplete" | "skipped" | { error: string })[] = new Array(addresses.length);
  const records: (FetchRecord | undefined)[] = new Array(addresses.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < addresses.length; i = next++) {
      const address = addresses[i] as string;
      if (controller.signal.aborted || opts.now() >= opts.deadline) {
        results[i] = "skipped";
        continue;
      }
      try {
        const result = await provider.ensureCovered(chainId, address, range, controller.signal);
        results[i] = result.truncated ? "incomplete" : "ok";
        records[i] = result.record;
      } catch (error) {
        results[i] = controller.signal.aborted
          ? "skipped"
          : { error: error instanceof Error ? error.message : String(error) };
      }
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(opts.concurrency, addresses.length)) }, worker),
    );
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", stop);
  }
  addresses.forEach((address, i) => {
    const result = results[i];
    if (result === "ok" || result === "incomplete") report.ensured++;
    if (result === "incomplete") report.incomplete.push(address);
    else if (result === "skipped") report.skipped.push(address);
    else if (typeof result === "object") report.failed.push({ address, error: result.error });
    const record = records[i];
    if (record) report.records.push(record);
  });
  return { ...report, timedOut: report.skipped.length > 0 };
}
