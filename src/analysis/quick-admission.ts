// The quick checks' admission (platform/admission.ts, docs/decisions/0035): at most VIGIA_QUICK_MAX_IN_FLIGHT checks
// at once in the process and VIGIA_QUICK_MAX_IN_FLIGHT_PER_PROJECT of one project, each waiting at most
// VIGIA_QUICK_MAX_WAIT_MS for a place, counted from its arrival (the event loop's lag included), and refused at once
// when at the rate checks finish its place would come later than that. A refusal is a 503 with Retry-After for the
// integrator, a count on /metrics (vigia_quick_checks_refused_total) and, at most once every 10 s, a warning
// saying how many and why.
import { Admission, tellRefusals } from "../platform/admission.ts";

export interface QuickAdmissionLimits {
  maxInFlight: number;
  maxInFlightPerProject: number;
  maxWaitMs: number;
}

export function quickAdmission(
  limits: QuickAdmissionLimits,
  tell: {
    refused(): void;
    log: { warn(obj: object, msg: string): void };
    /** how late the process's event loop runs, in ms (platform/loop-lag.ts) */
    lag?: () => number;
  },
  now: () => number = Date.now,
): Admission {
  const admission = new Admission({
    maxInFlight: limits.maxInFlight,
    maxInFlightPerTenant: limits.maxInFlightPerProject,
    maxWaitMs: limits.maxWaitMs,
    ...(tell.lag ? { lag: tell.lag } : {}),
  });
  tellRefusals(
    admission,
    tell,
    limits,
    (n) =>
      `refused ${n} quick check(s) with 503: no place freed within ${limits.maxWaitMs} ms (this process is past its capacity; add API processes or raise VIGIA_QUICK_MAX_IN_FLIGHT if its CPU is not saturated)`,
    now,
  );
  return admission;
}
