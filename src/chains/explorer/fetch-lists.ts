// Reads an adapter's lists page by page inside a date window, hands each page to the store, and stops a list at
// the window's start (lists are newest first), at its last page, or at the page / transfer caps. A capped list
// makes the result `truncated`, and `reachedFrom` says from when on the history is nonetheless complete.
import type { HistoryWindow } from "./coverage.ts";
import type { ExplorerTransfer, HistoryList, HistoryPage } from "./types.ts";

export interface ListCaps {
  maxPages: number;
  maxTransfers: number;
}

export interface ListsResult {
  /** Transfers inside the window the explorer delivered (whether new to the store or not). */
  delivered: number;
  truncated: boolean;
  /** When truncated: the store holds the window's complete history from this time on. */
  reachedFrom: Date | null;
}

export type PageSink = (page: HistoryPage, transfers: ExplorerTransfer[]) => Promise<void>;

/** Block times have whole seconds: a list capped at time T may miss items at T, none after it. */
const AFTER_BLOCK_MS = 1000;

export async function fetchLists(
  lists: HistoryList[],
  window: HistoryWindow,
  caps: ListCaps,
  sink: PageSink,
  startedAt: Date,
  signal?: AbortSignal,
): Promise<ListsResult> {
  const from = window.from?.getTime();
  const to = window.to?.getTime();
  let delivered = 0;
  let reachedFrom: number | null = null;
  for (const list of lists) {
    let pages = 0;
    let transfers = 0;
    let oldest: number | null = null;
    for await (const page of list.pages(signal)) {
      pages += 1;
      const inWindow: ExplorerTransfer[] = [];
      let pastStart = false;
      for (const item of page.items) {
        if (item.blockTime === null) continue;
        const t = item.blockTime.getTime();
        if (to !== undefined && t > to) continue;
        if (from !== undefined && t < from) {
          pastStart = true;
          break;
        }
        oldest = t;
        if (item.transfer) inWindow.push(item.transfer);
      }
      await sink(page, inWindow);
      transfers += inWindow.length;
      if (pastStart || !page.more) break;
      if (pages >= caps.maxPages || transfers >= caps.maxTransfers) {
        const reached = oldest === null ? (to ?? startedAt.getTime()) : oldest + AFTER_BLOCK_MS;
        reachedFrom = Math.max(reachedFrom ?? Number.NEGATIVE_INFINITY, reached);
        break;
      }
    }
    delivered += transfers;
    signal?.throwIfAborted();
  }
  return {
    delivered,
    truncated: reachedFrom !== null,
    reachedFrom: reachedFrom === null ? null : new Date(reachedFrom),
  };
}
