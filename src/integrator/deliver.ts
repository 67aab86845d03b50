// Delivers the notification outbox to integrators, at least once: claims due messages (outbox.ts), signs each in its
// project's scheme with its current secret and any rotated-out one still valid (signing.ts, rotation.ts), POSTs it to
// `{integration_url}/webhook` through the safe outbound client, and records the attempt. A 2xx within 10 s is
// delivered; anything else is retried on the Standard Webhooks example schedule (after 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h, 14 h, 20 h and 24 h, with up to 10 % jitter: 10 attempts, about 75 h), then the message is failed and
// kept for redelivery. Every process running workers runs one; they share the outbox safely.
//
// Fair to every tenant: each message is claimed and delivered on its own (no batch waits for its slowest call),
// at most `slots` at once in this process and `perProject` of one project at once across all workers; an endpoint
// that times out or cannot be reached pauses its own project's deliveries (health.ts), nobody else's. Every failed
// attempt is logged at warn (project, message id, reason; never the secret or the body) and counted by reason.

import { configDefault } from "../platform/config.ts";
import { OutboundError } from "../platform/outbound/index.ts";
import { WorkPump } from "../platform/work-pump.ts";
import { type FailureReason, type IntegratorContext, statusReason, unreachable } from "./context.ts";
import { WEBHOOK_TIMEOUT_MS } from "./endpoint-check.ts";
import { recordFailure, recordSuccess } from "./health.ts";
import { type Claim, claimDue, recordAttempt, withId } from "./outbox.ts";
import { callSigned } from "./rotation.ts";
import { integrationOf } from "./settings.ts";
import { serializeBody, signatureHeaders } from "./signing.ts";

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
  /** in [0, 1): the jitter of each wait */
  random: () => number;
  /** messages delivered at once by this process */
  slots: number;
  /** messages of one project delivered at once, by all workers together */
  perProject: number;
  /** how long a claim lasts: longer than a call can take */
  leaseMs: number;
  /** how often an idle deliverer looks for due messages */
  pollMs: number;
  /** a webhook that has not answered in full by then failed (10 s, the name's resolution included) */
  webhookTimeoutMs: number;
  /**
   * Told of every attempt once recorded (the service's metrics): delivered, failed to be retried, or failed for
   * the last time of its round.
   */
  onAttempt?: (outcome: AttemptOutcome) => void;
}

export type AttemptOutcome = "delivered" | "retrying" | "failed";

/** The limits of the configuration table (VIGIA_DELIVERIES_PER_PROCESS, VIGIA_DELIVERIES_PER_PROJECT), the lease. */
export const DEFAULT_DELIVERER: Omit<DelivererOptions, "onAttempt"> = {
  random: Math.random,
  slots: configDefault("VIGIA_DELIVERIES_PER_PROCESS"),
  perProject: configDefault("VIGIA_DELIVERIES_PER_PROJECT"),
  leaseMs: 60_000,
  pollMs: 1_000,
  webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
};

export class NotificationDeliverer {
  readonly #o: DelivererOptions;
  readonly #pump: WorkPump<Claim>;

  constructor(
    private readonly ctx: IntegratorContext,
    options: Partial<DelivererOptions> = {},
  ) {
    this.#o = { ...DEFAULT_DELIVERER, ...options };
    this.#pump = new WorkPump({
      slots: this.#o.slots,
      pollMs: this.#o.pollMs,
      claim: (free) => this.#claim(free),
      run: (claim) => this.#deliver(claim),
      onError: (step, error) => {
        this.ctx.log?.error(
          { err: error, step },
          `notification deliverer: the ${step === "claim" ? "claim of due messages" : "record of an attempt"} failed: ${(error as Error).message}`,
        );
        this.ctx.countLoopFailure?.("deliverer");
      },
    });
  }

  #claim(free: number): Promise<Claim[]> {
    return claimDue(this.ctx.db, new Date(this.ctx.now()), {
      limit: free,
      perProject: this.#o.perProject,
      leaseMs: this.#o.leaseMs,
    });
  }

  /** Claims the messages due now and delivers them, waiting for every one: the number delivered or retried. */
  async runOnce(): Promise<number> {
    const claims = await this.#claim(this.#o.slots);
    await Promise.all(claims.map((claim) => this.#deliver(claim)));
    return claims.length;
  }

  /** Delivers until stopped, each message as soon as it is due and a slot is free. */
  start(): void {
    this.#pump.start();
  }

  /** Looks for due messages now (a message was just handed in). */
  wake(): void {
    this.#pump.wake();
  }

  stop(): Promise<void> {
    return this.#pump.stop();
  }

  async #deliver(claim: Claim): Promise<void> {
    const { ctx } = this;
    const o = this.#o;
    const startedAt = new Date(ctx.now());
    const started = performance.now();
    let statusCode: number | null = null;
    let failure: { reason: FailureReason; message: string } | undefined;
    let failing = true;
    let refused: { status: number; durationMs: number } | undefined;
    try {
      const integration = integrationOf(ctx.serverKeys, claim.integration, startedAt);
      failing = integration.failing;
      if (!integration.integrationUrl)
        throw new OutboundError("invalid_url", "the project has no integration_url");
      const url = `${integration.integrationUrl.replace(/\/+$/, "")}/webhook`;
      const body = withId(JSON.parse(claim.body), claim.id);
      const payload = serializeBody(integration.scheme, body);
      // Under a rotation of the canonical scheme, sent again at once with the new secret if the old is refused.
      const res = await callSigned(
        ctx,
        claim.projectId,
        integration,
        (secrets) =>
          ctx.outbound.request({
            method: "POST",
            url,
            timeoutMs: o.webhookTimeoutMs,
            headers: {
              ...signatureHeaders(integration.scheme, secrets, {
                id: claim.messageId,
                method: "POST",
                path: new URL(url).pathname,
                body,
                at: ctx.now(),
              }),
              "content-type": "application/json",
            },
            body: payload,
          }),
        (first) => {
          refused = first;
        },
      );
      statusCode = res.status;
      if (res.status < 200 || res.status > 299)
        failure = { reason: statusReason(res.status), message: `answered ${res.status}` };
    } catch (e) {
      failure =
        e instanceof OutboundError
          ? { reason: e.kind, message: e.message }
          : { reason: "network", message: "the delivery failed" };
    }
    const outcome = {
      startedAt,
      statusCode,
      error: failure?.message ?? null,
      durationMs: performance.now() - started,
      ...(refused ? { refused } : {}),
    };
    if (failure === undefined) {
      await recordAttempt(ctx.db, claim, outcome, { status: "delivered" });
      if (failing) await recordSuccess(ctx.db, claim.projectId);
      o.onAttempt?.("delivered");
      return;
    }
    ctx.countFailure?.("webhook", failure.reason);
    const inRound = claim.attempt - claim.roundStart;
    const last = inRound >= MAX_ATTEMPTS;
    const wait = last ? 0 : (RETRY_SCHEDULE_MS[inRound - 1] as number) * (1 + 0.1 * o.random());
    await recordAttempt(
      ctx.db,
      claim,
      outcome,
      last ? { status: "failed" } : { status: "pending", at: new Date(ctx.now() + wait) },
    );
    // An endpoint that did not answer pauses its own project's deliveries, growing with each such failure.
    const pauseMs = await recordFailure(
      ctx.db,
      claim.projectId,
      `webhook: ${failure.message}`,
      new Date(ctx.now()),
      unreachable(failure.reason),
    );
    ctx.log?.warn(
      {
        projectId: claim.projectId,
        messageId: claim.messageId,
        notificationId: claim.id,
        attempt: claim.attempt,
        call: "webhook",
        reason: failure.reason,
        ...(pauseMs > 0 ? { pausedMs: pauseMs } : {}),
      },
      `webhook delivery of ${claim.messageId} failed: ${failure.message}${last ? "; no attempt is left in its round" : ""}`,
    );
    o.onAttempt?.(last ? "failed" : "retrying");
  }
}
