// Reading the integrator's profile of a user: `GET {integration_url}/users/{foreign_user_id}`, signed like every call
// to the integrator, 5 s timeout, validated against the profile schema (src/jurisdictions; unknown extra fields
// dropped). What each jurisdiction's files need beyond the schema is that jurisdiction's check (`profileGap`).
// Answers are cached for a short time. Every failure is a reason a person can act on, for a `type: error` message.
import { randomUUID } from "node:crypto";
import { Value } from "@sinclair/typebox/value";
import { type Profile, ProfileSchema } from "../jurisdictions/index.ts";
import type { Integration } from "../keys/index.ts";
import { signatureHeaders } from "../notifications/index.ts";
import { type OutboundClient, OutboundError } from "../platform/outbound/index.ts";

export type ProfileResult = { ok: true; profile: Profile } | { ok: false; reason: string };

export const PROFILE_TIMEOUT_MS = 5_000;

/** Fetches and checks profiles, caching each answer (good or bad) for `ttlMs`. */
export class ProfileReader {
  readonly #cache = new Map<string, { at: number; result: Promise<ProfileResult> }>();

  constructor(
    private readonly outbound: OutboundClient,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets every cached answer (a profile known to have changed). */
  clear(): void {
    this.#cache.clear();
  }

  read(projectId: number, integration: Integration, foreignUserId: string): Promise<ProfileResult> {
    const key = `${projectId}\n${integration.integrationUrl}\n${foreignUserId}`;
    const hit = this.#cache.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.result;
    const result = this.#fetch(integration, foreignUserId);
    this.#cache.delete(key);
    this.#cache.set(key, { at: this.now(), result });
    // The oldest answers go first once the cache holds many users.
    if (this.#cache.size > 1_000) this.#cache.delete(this.#cache.keys().next().value as string);
    return result;
  }

  async #fetch(integration: Integration, foreignUserId: string): Promise<ProfileResult> {
    if (!integration.integrationUrl) return { ok: false, reason: "the project has no integration_url" };
    const url = `${integration.integrationUrl.replace(/\/+$/, "")}/users/${encodeURIComponent(foreignUserId)}`;
    const headers = signatureHeaders(integration.scheme, integration.secrets, {
      id: `msg_${randomUUID()}`,
      method: "GET",
      path: new URL(url).pathname,
      body: undefined,
      at: this.now(),
    });
    let json: unknown;
    try {
      const res = await this.outbound.request({ method: "GET", url, headers, timeoutMs: PROFILE_TIMEOUT_MS });
      if (res.status < 200 || res.status > 299)
        return { ok: false, reason: `the user profile request answered ${res.status}` };
      json = JSON.parse(res.body.toString("utf8"));
    } catch (error) {
      return {
        ok: false,
        reason:
          error instanceof OutboundError
            ? `the user profile could not be fetched: ${error.message}`
            : "the user profile is not valid JSON",
      };
    }
    if (!Value.Check(ProfileSchema, json)) {
      const first = Value.Errors(ProfileSchema, json).First();
      return {
        ok: false,
        reason: `the user profile is invalid at ${first?.path || "/"}: ${first?.message ?? "not an object"}`,
      };
    }
    // Extra fields the integrator sends are dropped: a report keeps the profile it used, and only what it used.
    return { ok: true, profile: Value.Clean(ProfileSchema, json) as Profile };
  }
}
