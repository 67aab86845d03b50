// Reading the integrator's profile of a user: `GET {integration_url}/users/{foreign_user_id}`, signed like every call
// to the integrator, 5 s in all (the name's resolution included), validated against the profile schema
// (src/jurisdictions; unknown extra fields dropped). What each jurisdiction's files need beyond the schema is that
// jurisdiction's check (`profileGap`). Every failure is a reason a person can act on, for a `type: error` message.
//
// Fair to every tenant: a project's reads run at most `perProject` at once in this process, so a slow integrator
// holds only its own project's slots; a good answer is kept for `ttlMs`, and a failure for a back-off that doubles
// with each failure in a row (from `failureBackoffMs` to `maxBackoffMs`), so that a user whose profile failed is
// not asked again for each of its transfers. Each failure is logged at warn and counted by reason.
import { randomUUID } from "node:crypto";
import { Value } from "@sinclair/typebox/value";
import { type Profile, ProfileSchema } from "../jurisdictions/index.ts";
import { configDefault } from "../platform/config.ts";
import { KeyedLimiter } from "../platform/keyed-limiter.ts";
import { OutboundError } from "../platform/outbound/index.ts";
import { type FailureReason, type IntegratorContext, statusReason, unreachable } from "./context.ts";
import { recordFailure, recordSuccess } from "./health.ts";
import { callSigned } from "./rotation.ts";
import { type Integration, projectIntegration } from "./settings.ts";
import { signatureHeaders } from "./signing.ts";

export type ProfileResult = { ok: true; profile: Profile } | { ok: false; reason: string };

export const PROFILE_TIMEOUT_MS = 5_000;

export interface ProfileReaderOptions {
  /** how long a good answer is kept */
  ttlMs: number;
  /** how long the first failure of a user's profile is kept; each failure in a row doubles it */
  failureBackoffMs: number;
  maxBackoffMs: number;
  /** reads of one project at once in this process */
  perProject: number;
  /** the whole read, the name's resolution included */
  timeoutMs: number;
}

export const DEFAULT_PROFILE_READER: ProfileReaderOptions = {
  ttlMs: 60_000,
  failureBackoffMs: 30_000,
  maxBackoffMs: 15 * 60_000,
  perProject: configDefault("VIGIA_PROFILE_READS_PER_PROJECT"),
  timeoutMs: PROFILE_TIMEOUT_MS,
};

interface Cached {
  /** until when the answer serves */
  until: number;
  result: Promise<ProfileResult>;
  /** failures in a row before this answer */
  failures: number;
}

/** How many users' answers are kept; the oldest go first. */
const CACHE_SIZE = 10_000;

export class ProfileReader {
  readonly #cache = new Map<string, Cached>();
  readonly #limiter: KeyedLimiter<number>;
  readonly #o: ProfileReaderOptions;

  constructor(
    private readonly ctx: IntegratorContext,
    options: Partial<ProfileReaderOptions> = {},
  ) {
    this.#o = { ...DEFAULT_PROFILE_READER, ...options };
    this.#limiter = new KeyedLimiter(this.#o.perProject);
  }

  /** Forgets every kept answer (a profile known to have changed). */
  clear(): void {
    this.#cache.clear();
  }

  /** The profile of a project's user, as the project's integrator answers it now. */
  async read(projectId: number, foreignUserId: string): Promise<ProfileResult> {
    const now = this.ctx.now();
    const integration = await projectIntegration(this.ctx.db, this.ctx.serverKeys, projectId, new Date(now));
    const key = `${projectId}\n${integration.integrationUrl}\n${foreignUserId}`;
    const hit = this.#cache.get(key);
    if (hit && now < hit.until) return hit.result;
    const failures = hit ? hit.failures : 0;
    const result = this.#limiter.run(projectId, () => this.#fetch(projectId, integration, foreignUserId));
    const entry: Cached = { until: Number.POSITIVE_INFINITY, result, failures };
    this.#cache.delete(key);
    this.#cache.set(key, entry);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
    // Kept from when the answer came: a good one for the TTL, a failure for its back-off.
    let answer: ProfileResult;
    try {
      answer = await result;
    } catch (error) {
      // The database failed while the failure was recorded: nothing is kept, the next read asks again.
      if (this.#cache.get(key) === entry) this.#cache.delete(key);
      throw error;
    }
    entry.failures = answer.ok ? 0 : failures + 1;
    entry.until =
      this.ctx.now() +
      (answer.ok
        ? this.#o.ttlMs
        : Math.min(this.#o.maxBackoffMs, this.#o.failureBackoffMs * 2 ** Math.min(20, failures)));
    return answer;
  }

  async #fetch(projectId: number, integration: Integration, foreignUserId: string): Promise<ProfileResult> {
    const fail = async (reason: FailureReason, message: string): Promise<ProfileResult> => {
      this.ctx.log?.warn(
        { projectId, userId: foreignUserId, call: "profile", reason },
        `profile read of user ${foreignUserId} failed: ${message}`,
      );
      this.ctx.countFailure?.("profile", reason);
      // Only a server that does not answer, or answers 5xx, counts against the integrator's health.
      if (unreachable(reason) || reason === "status_5xx")
        await recordFailure(
          this.ctx.db,
          projectId,
          `profile read: ${message}`,
          new Date(this.ctx.now()),
          false,
        );
      return { ok: false, reason: message };
    };
    if (!integration.integrationUrl) return fail("no_url", "the project has no integration_url");
    const url = `${integration.integrationUrl.replace(/\/+$/, "")}/users/${encodeURIComponent(foreignUserId)}`;
    const id = `msg_${randomUUID()}`;
    let json: unknown;
    try {
      // Under a rotation of the canonical scheme, asked again at once with the new secret if the old is refused.
      const res = await callSigned(this.ctx, projectId, integration, (secrets) =>
        this.ctx.outbound.request({
          method: "GET",
          url,
          headers: signatureHeaders(integration.scheme, secrets, {
            id,
            method: "GET",
            path: new URL(url).pathname,
            body: undefined,
            at: this.ctx.now(),
          }),
          timeoutMs: this.#o.timeoutMs,
        }),
      );
      if (res.status < 200 || res.status > 299)
        return fail(statusReason(res.status), `the user profile request answered ${res.status}`);
      if (integration.failing) await recordSuccess(this.ctx.db, projectId);
      json = JSON.parse(res.body.toString("utf8"));
    } catch (error) {
      return error instanceof OutboundError
        ? fail(error.kind, `the user profile could not be fetched: ${error.message}`)
        : fail("invalid_profile", "the user profile is not valid JSON");
    }
    if (!Value.Check(ProfileSchema, json)) {
      const first = Value.Errors(ProfileSchema, json).First();
      return fail(
        "invalid_profile",
        `the user profile is invalid at ${first?.path || "/"}: ${first?.message ?? "not an object"}`,
      );
    }
    // Extra fields the integrator sends are dropped: a report keeps the profile it used, and only what it used.
    return { ok: true, profile: Value.Clean(ProfileSchema, json) as Profile };
  }
}
