// When a request can be answered from the store, and what to fetch when it cannot (pure functions).
//
// A finished fetch covers [coveredFrom, coveredTo] of the address's history (null ends: from its first transfer /
// up to the fetch time). A request for [from, to] is a cache hit while the record is fresh and covers it. A fresh
// record that was capped (truncated) also answers requests reaching further back: fetching again would stop at the
// same cap. A stale record of an open-ended history is refreshed incrementally: only from a little before its
// fetch time, keeping what it covered before.
import type { FetchRecord } from "../../ledger/index.ts";

export interface HistoryWindow {
  from?: Date | undefined;
  to?: Date | undefined;
}

export type Plan =
  | { hit: true; truncated: boolean }
  /** `keep`: an incremental refresh keeps the stored coverage start (and its truncation) when it completes. */
  | { hit: false; window: HistoryWindow; keep?: { from: Date | null; truncated: boolean } };

export interface PlanOptions {
  now: number;
  freshnessMs: number;
  refreshOverlapMs: number;
}

const ms = (d: Date | null | undefined) => (d ? d.getTime() : undefined);

export function planFetch(stored: FetchRecord | undefined, request: HistoryWindow, o: PlanOptions): Plan {
  const window: HistoryWindow = { from: request.from, to: request.to };
  if (!stored) return { hit: false, window };
  const fresh = o.now - stored.fetchedAt.getTime() < o.freshnessMs;
  const toCovered =
    stored.coveredTo === null ||
    (request.to !== undefined && request.to.getTime() <= stored.coveredTo.getTime());
  const fromCovered =
    stored.coveredFrom === null ||
    (request.from !== undefined && request.from.getTime() >= stored.coveredFrom.getTime());
  if (fresh && toCovered && (fromCovered || stored.truncated)) return { hit: true, truncated: !fromCovered };
  if (fromCovered && stored.coveredTo === null && request.to === undefined) {
    // Incremental refresh of an open-ended history: the new part, overlapping the last fetch a little.
    const since = new Date(stored.fetchedAt.getTime() - o.refreshOverlapMs);
    const from = Math.max(since.getTime(), ms(request.from) ?? Number.NEGATIVE_INFINITY);
    return {
      hit: false,
      window: { from: new Date(from) },
      keep: { from: stored.coveredFrom, truncated: stored.truncated },
    };
  }
  return { hit: false, window };
}

/** What the store covers after a fetch of `window` that completed (capped or not). */
export function coverageAfter(
  plan: Extract<Plan, { hit: false }>,
  result: { truncated: boolean; reachedFrom: Date | null },
): { coveredFrom: Date | null; coveredTo: Date | null; truncated: boolean } {
  const coveredTo = plan.window.to ?? null;
  if (result.truncated) return { coveredFrom: result.reachedFrom, coveredTo, truncated: true };
  if (plan.keep) return { coveredFrom: plan.keep.from, coveredTo, truncated: plan.keep.truncated };
  return { coveredFrom: plan.window.from ?? null, coveredTo, truncated: false };
}
