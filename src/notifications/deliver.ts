// Delivers the notification outbox to integrators, at least once: claims due messages (store.ts), signs each in its
// project's scheme with its current secret and any rotated-out one still valid (signing.ts), POSTs it to
// `{integration_url}/webhook` through the safe outbound client, and records the attempt. A 2xx within 10 s is
// delivered; anything else is retried on the Standard Webhooks example schedule (after 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h, 14 h, 20 h and 24 h, with up to 10 % jitter: 10 attempts, about 75 h), then the message is failed and
// kept for redelivery. Every process running workers runs one; they share the outbox safely.

import type { Kysely } from "kysely";
import { type Integration, type KeysContext, projectIntegration } from "../keys/index.ts";
import { type OutboundClient, OutboundError } from "../platform/outbound/index.ts";
import { PollingLoop } from "../platform/polling.ts";
import type { DB } from "../schema.ts";
import { WEBHOOK_TIMEOUT_MS } from "./integration-test.ts";
import { serializeBody, signatureHeaders } from "./signing.ts";
import { type Claim, claimDue, recordAttempt, withId } from "./store.ts";

/** Waits after each failed attempt of a round (the last entry: before the 10th attempt). */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

export interface DelivererOptions {
  db: Kysely<DB>;
  keys: KeysContext;
  outbound: OutboundClient;
  /** epoch milliseconds (tests move it) */
  now: () => number;
  /** in [0, 1): the jitter of each wait */
  random: () => number;
  /** messages claimed at once, and delivered concurrently */
  batch: number;
  /** how long a claim lasts: longer than a call can take */
  leaseMs: number;
  /** how often an idle deliverer looks for due messages */
  pollMs: number;
  /** a webhook that has not answered in full by then failed (10 s) */
  webhookTimeoutMs: number;
  /**
   * Told of every attempt once recorded (the service's metrics): delivered, failed to be retried, or failed for
   * the last time of its round.
   */
  onAttempt?: (outcome: AttemptOutcome) => void;
}

export type AttemptOutcome = "delivered" | "retrying" | "failed";

export class NotificationDeliverer {
  readonly #options: DelivererOptions;
  readonly #loop: PollingLoop;

  constructor(options: Partial<DelivererOptions> & Pick<DelivererOptions, "db" | "keys" | "outbound">) {
    this.#options = {
      now: Date.now,
      random: Math.random,
      batch: 16,
      leaseMs: 60_000,
      pollMs: 1_000,
      webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
      ...options,
    };
    this.#loop = new PollingLoop(() => this.runOnce(), this.#options.batch, this.#options.pollMs);
  }

  /** Claims one batch of due messages and delivers them; the number delivered or retried. */
  async runOnce(): Promise<number> {
    const o = this.#options;
    const at = new Date(o.now());
    const claims = await claimDue(o.db, at, o.batch, o.leaseMs);
    // A batch is mostly one project's messages: its settings are read (and its secrets decrypted) once.
    const integrations = new Map<number, Promise<Integration>>();
    const integrationOf = (projectId: number) => {
      let found = integrations.get(projectId);
      if (!found) {
        found = projectIntegration(o.keys, projectId, at);
        integrations.set(projectId, found);
      }
      return found;
    };
    await Promise.all(claims.map((claim) => this.#deliver(claim, integrationOf)));
    return claims.length;
  }

  /** Polls until stopped; a full batch is followed at once by the next. */
  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #deliver(claim: Claim, integrationOf: (projectId: number) => Promise<Integration>): Promise<void> {
    const o = this.#options;
    const startedAt = new Date(o.now());
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const integration = await integrationOf(claim.projectId);
      if (!integration.integrationUrl)
        throw new OutboundError("invalid_url", "the project has no integration_url");
      const url = `${integration.integrationUrl.replace(/\/+$/, "")}/webhook`;
      const body = withId(JSON.parse(claim.body), claim.id);
      const headers = signatureHeaders(integration.scheme, integration.secrets, {
        id: claim.messageId,
        method: "POST",
        path: new URL(url).pathname,
        body,
        at: startedAt.getTime(),
      });
      const res = await o.outbound.request({
        method: "POST",
        url,
        timeoutMs: o.webhookTimeoutMs,
        headers: { ...headers, "content-type": "application/json" },
        body: serializeBody(integration.scheme, body),
      });
      statusCode = res.status;
      if (res.status < 200 || res.status > 299) error = `answered ${res.status}`;
    } catch (e) {
      error = e instanceof OutboundError ? e.message : "the delivery failed";
    }
    const outcome = { startedAt, statusCode, error, durationMs: performance.now() - started };
    if (error === null) {
      await recordAttempt(o.db, claim, outcome, { status: "delivered" });
      o.onAttempt?.("delivered");
      return;
    }
    const inRound = claim.attempt - claim.roundStart;
    if (inRound >= MAX_ATTEMPTS) {
      await recordAttempt(o.db, claim, outcome, { status: "failed" });
      o.onAttempt?.("failed");
      return;
    }
    const wait = (RETRY_SCHEDULE_MS[inRound - 1] as number) * (1 + 0.1 * o.random());
    await recordAttempt(o.db, claim, outcome, { status: "pending", at: new Date(o.now() + wait) });
    o.onAttempt?.("retrying");
  }
}
