// The deadline of an analysis run inside a request (scans, standard investigations). The expansion's own time
// budget bounds the graph it reads; this bounds the whole request, including a statement or an explorer that
// hangs. Past it the work stops (an AbortSignal) and the caller answers with what it has: the scan's addresses
// fail with OUT_OF_TIME, a standard investigation is answered still running and a worker finishes it.
import type { AnalysisContext } from "./context.ts";

export const DEFAULT_REQUEST_DEADLINE_MS = 30_000;

/** The fixed reason a client gets for an analysis stopped by its deadline. */
export const OUT_OF_TIME = "The analysis ran out of time";

/** A signal that aborts when the request's analysis time is spent (its timer does not keep the process up). */
export function requestDeadline(ctx: Pick<AnalysisContext, "requestDeadlineMs">): AbortSignal {
  return AbortSignal.timeout(ctx.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS);
}
