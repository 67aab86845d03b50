// The endpoint check of POST /projects/{projectId}/integration/test: lets an integrator check its endpoint and its signature code before
// going live. Calls `GET {integration_url}/users/{foreign_user_id}` when an id is given, then POSTs a signed sample
// notification (`data.test: true`) to `{integration_url}/webhook`, both signed in the project's scheme and made
// through the safe outbound client; answers each call's status, latency and error, never throwing for the
// integrator's failures.
import { randomUUID } from "node:crypto";
import { type OutboundClient, OutboundError } from "../platform/outbound/index.ts";
import { type SigningScheme, serializeBody, signatureHeaders } from "./signing.ts";

/** The integrator's user profile answers within 5 s; a webhook succeeds with a 2xx within 10 s. */
export const PROFILE_TIMEOUT_MS = 5_000;
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface IntegrationProject {
  id: number;
  integrationUrl: string;
  scheme: SigningScheme;
  secret: string;
}

export interface CallOutcome {
  method: "GET" | "POST";
  url: string;
  /** the HTTP status, or null when no answer came */
  status: number | null;
  ok: boolean;
  latency_ms: number;
  error: string | null;
  /** the message id the call was signed with (Standard Webhooks `webhook-id`) */
  message_id: string;
}

/** The sample notification: the shape of a real one, marked `test: true`. */
export function sampleNotification(projectId: number, foreignUserId: string | undefined, at: Date) {
  return {
    type: "notification" as const,
    data: {
      id: 0,
      projectId,
      chainId: 1,
      address: {
        id: 0,
        userId: foreignUserId ?? "test-user",
        address: "0x0000000000000000000000000000000000000001",
        description: "Vigía integration test",
      },
      txHash: `0x${"0".repeat(64)}`,
      timestamp: at.toISOString(),
      amount: { value: 1_000_000, usd: 1, valueDecimal: "1000000" },
      token: {
        name: "USD Coin",
        symbol: "USDC",
        decimals: 6,
        address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      },
      inflictedLaws: [],
      test: true,
    },
  };
}

export async function checkEndpoint(
  client: OutboundClient,
  project: IntegrationProject,
  foreignUserId: string | undefined,
  now: () => Date = () => new Date(),
): Promise<{ profile: CallOutcome | null; webhook: CallOutcome }> {
  const base = project.integrationUrl.replace(/\/+$/, "");
  const call = async (
    method: "GET" | "POST",
    path: string,
    body: unknown,
    timeoutMs: number,
  ): Promise<CallOutcome> => {
    const url = `${base}${path}`;
    const id = `msg_${randomUUID()}`;
    const pathname = safePathname(url);
    const headers = signatureHeaders(project.scheme, [project.secret], {
      id,
      method,
      path: pathname,
      body,
      at: now().getTime(),
    });
    const started = performance.now();
    try {
      const res = await client.request({
        method,
        url,
        timeoutMs,
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: serializeBody(project.scheme, body) }),
      });
      const ok = res.status >= 200 && res.status < 300;
      return {
        method,
        url,
        status: res.status,
        ok,
        latency_ms: Math.round(res.ms),
        error: ok ? null : `answered ${res.status}`,
        message_id: id,
      };
    } catch (error) {
      return {
        method,
        url,
        status: null,
        ok: false,
        latency_ms: Math.round(performance.now() - started),
        error: error instanceof OutboundError ? error.message : "the call failed",
        message_id: id,
      };
    }
  };
  const profile =
    foreignUserId === undefined
      ? null
      : await call("GET", `/users/${encodeURIComponent(foreignUserId)}`, undefined, PROFILE_TIMEOUT_MS);
  const webhook = await call(
    "POST",
    "/webhook",
    sampleNotification(project.id, foreignUserId, now()),
    WEBHOOK_TIMEOUT_MS,
  );
  return { profile, webhook };
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "/";
  }
}
