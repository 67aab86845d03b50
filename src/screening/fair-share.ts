// Screening batches share the process's CPU fairly between projects. Screening a hundred names against a PEP-sized
// list is CPU on the API process's one thread for a while (about a millisecond a name); eighteen such batches from
// one project at once held another project's reads for seconds. So a batch runs only with a place
// (platform/admission.ts): at most VIGIA_SCREENING_MAX_IN_FLIGHT batches at once in the process and
// VIGIA_SCREENING_MAX_IN_FLIGHT_PER_PROJECT of one project (one project's burst waits behind itself, never ahead of
// another's), and a running batch gives the thread back every SLICE_MS (screenInSlices), so a request of any other
// project waits at most a slice or two for its turn. A batch that would wait longer than
// VIGIA_SCREENING_MAX_WAIT_MS for its place is refused with 503 and Retry-After, counted and logged.
import { Admission, Overloaded, tellRefusals } from "../platform/admission.ts";
import { AppError } from "../platform/errors.ts";

/** The longest a batch holds the thread before letting other requests run, in ms. */
export const SLICE_MS = 1;

export interface ScreeningShareLimits {
  maxInFlight: number;
  maxInFlightPerProject: number;
  maxWaitMs: number;
}

const REFUSED = new AppError(
  "unavailable",
  "This service is screening as many batches as it can: retry after the time Retry-After gives, or send fewer batches at once",
  { retryAfter: 5, reported: true },
);

/** The screening batches' admission, telling of each refusal (a count) and at most every 10 s a warning. */
export function screeningShare(
  limits: ScreeningShareLimits,
  tell: { refused(): void; log: { warn(obj: object, msg: string): void } },
  now: () => number = Date.now,
): Admission {
  const admission = new Admission({
    maxInFlight: limits.maxInFlight,
    maxInFlightPerTenant: limits.maxInFlightPerProject,
    maxWaitMs: limits.maxWaitMs,
  });
  tellRefusals(
    admission,
    tell,
    limits,
    (n) =>
      `refused ${n} screening batch(es) with 503: no place freed within ${limits.maxWaitMs} ms (raise VIGIA_SCREENING_MAX_IN_FLIGHT if this process's CPU is not saturated, or add API processes)`,
    now,
  );
  return admission;
}

/** Runs `batch` once the project has a place; past the wait, the 503. */
export async function withScreeningPlace<T>(
  admission: Admission,
  projectId: number,
  batch: () => Promise<T>,
): Promise<T> {
  try {
    return await admission.run(projectId, batch);
  } catch (error) {
    if (error instanceof Overloaded) throw REFUSED;
    throw error;
  }
}

/** `screen` applied to each item in order, giving the thread back whenever a slice of SLICE_MS is used up. */
export async function screenInSlices<T, R>(items: readonly T[], screen: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    out.push(screen(item));
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return out;
}
