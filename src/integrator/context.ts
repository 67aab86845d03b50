// What the integrator room needs from the composition root (service.ts).
import type { Kysely } from "kysely";
import type pino from "pino";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import type { OutboundClient } from "../platform/outbound/index.ts";
import type { DB } from "../schema.ts";

export interface IntegratorContext {
  db: Kysely<DB>;
  serverKeys: ServerKeys;
  /** every call to an integrator goes through it (SSRF-safe, bounded: src/platform/outbound) */
  outbound: OutboundClient;
  /** epoch milliseconds (tests move it) */
  now: () => number;
  /** where each failed call is logged, at warn, without secrets or bodies */
  log?: pino.Logger;
  /** counts each failed call by what was called and a reason class (vigia_integrator_failures_total) */
  countFailure?: (call: IntegratorCall, reason: FailureReason) => void;
  /** counts a step of a background loop that failed (vigia_worker_step_failures_total) */
  countLoopFailure?: (loop: string) => void;
}

export type IntegratorCall = "profile" | "webhook";

/**
 * Why a call failed, as a class that names no project (the metric's label): no answer in time, no connection, a
 * name that did not resolve, an address refused by policy, an answer too large, a status, or a profile the
 * service could not read.
 */
export type FailureReason =
  | "no_url"
  | "invalid_url"
  | "refused"
  | "dns"
  | "connect_timeout"
  | "timeout"
  | "network"
  | "too_large"
  | "status_4xx"
  | "status_5xx"
  | "status_other"
  | "invalid_profile";

export const FAILURE_REASONS: readonly FailureReason[] = [
  "no_url",
  "invalid_url",
  "refused",
  "dns",
  "connect_timeout",
  "timeout",
  "network",
  "too_large",
  "status_4xx",
  "status_5xx",
  "status_other",
  "invalid_profile",
];

/** The reason class of an answer's status. */
export function statusReason(status: number): FailureReason {
  if (status >= 400 && status < 500) return "status_4xx";
  if (status >= 500 && status < 600) return "status_5xx";
  return "status_other";
}

/** Whether a failure says the integrator is unreachable (not that it answered something wrong). */
export const unreachable = (reason: FailureReason) =>
  reason === "dns" || reason === "connect_timeout" || reason === "timeout" || reason === "network";
