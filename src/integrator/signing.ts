// How a call to an integrator is signed, in the scheme its project chose (its `signing_scheme` setting):
// - `standard-webhooks` (default): `webhook-id` (the same for every retry of one message), `webhook-timestamp`
//   (unix seconds) and `webhook-signature`: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the key the
//   `whsec_<base64>` secret encodes, computed and checked by the specification's own package (`standardwebhooks`),
//   so that what is sent is what integrators' verifiers expect. While a rotated-out secret is still honoured, both
//   signatures are sent, space-separated, as the Standard Webhooks specification allows; receivers accept either.
// - `hmac-canonical` (for integrators built for the service this interface comes from): `x-wavynode-hmac`, the base64
//   HMAC-SHA256 (keyed by the 32-character hex secret as text) of `METHOD::lowercase-path::JSON::timestamp`, and
//   `x-wavynode-timestamp`, epoch milliseconds as a string. JSON is JSON.stringify of the body with the keys of
//   nested plain objects sorted recursively; a GET signs `{}`. The original's rule leaves the objects inside arrays
//   as they are, and published verifiers differ on it (some sort every object): every body is therefore sent with
//   the keys of every object sorted, inside arrays too, so that both kinds compute the same string.
// Both schemes send that fully sorted JSON, so that what a receiver reads is in one order whatever it verifies with.
import crypto from "node:crypto";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

export type SigningScheme = "standard-webhooks" | "hmac-canonical";

export interface Message {
  /** the message id: stable across retries of one message */
  id: string;
  method: "GET" | "POST";
  /** the URL's path, without the query string */
  path: string;
  /** the JSON body (POST), or undefined (GET) */
  body: unknown;
  /** when this attempt is signed, epoch milliseconds */
  at: number;
}

/**
 * The headers that sign one attempt of a message. `secrets`: the current secret first, then any rotated-out one
 * still in its grace period (only Standard Webhooks can carry several signatures; the canonical scheme signs with
 * the current one). `body` must be sent exactly as `serializeBody` gives it.
 */
export function signatureHeaders(
  scheme: SigningScheme,
  secrets: readonly string[],
  message: Message,
): Record<string, string> {
  const [current] = secrets;
  if (current === undefined) throw new Error("no signing secret");
  if (scheme === "hmac-canonical") {
    const timestamp = String(message.at);
    return {
      "x-wavynode-hmac": hmacCanonical(current, message.method, message.path, signedJson(message), timestamp),
      "x-wavynode-timestamp": timestamp,
    };
  }
  const timestamp = String(Math.floor(message.at / 1000));
  const body = serializeBody(scheme, message.body);
  const signatures = secrets.map((secret) =>
    standardWebhook(secret).sign(message.id, new Date(message.at), body),
  );
  return {
    "webhook-id": message.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures.join(" "),
  };
}

/**
 * The body as it is sent (and signed), in either scheme: JSON with the keys of every object sorted, inside arrays
 * too (`canonicalJson`).
 */
export function serializeBody(_scheme: SigningScheme, body: unknown): string {
  if (body === undefined) return "";
  return canonicalJson(body);
}

/** The HMAC of `METHOD::lowercase-path::json::timestamp`, `json` being the body as the signer or verifier wrote it. */
function hmacCanonical(
  secret: string,
  method: string,
  path: string,
  json: string,
  timestamp: string,
): string {
  const content = `${method.toUpperCase()}::${path.toLowerCase()}::${json}::${timestamp}`;
  return crypto.createHmac("sha256", secret).update(content).digest("base64");
}

const signedJson = (message: Message): string =>
  message.method === "GET" || message.body === undefined ? "{}" : canonicalJson(message.body);

/**
 * JSON.stringify with the keys of every plain object sorted, at any depth, inside arrays too. Sent as it is, it reads
 * back to the same string under the original's rule (nested objects sorted, arrays left as they are) and under a
 * rule that sorts every object: the objects in arrays are already in order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, true));
}

/**
 * The original service's rule (its `sortObjectAlphabetically`): the keys of nested plain objects sorted, arrays and
 * the objects inside them as they are. What a receiver built for the original computes from a parsed body.
 */
export function originalCanonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, false));
}

function sortKeys(value: unknown, insideArrays: boolean): unknown {
  if (Array.isArray(value)) return insideArrays ? value.map((v) => sortKeys(v, true)) : [...value];
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    out[key] = sortKeys((value as Record<string, unknown>)[key], insideArrays);
  return out;
}

/**
 * The package's signer and verifier for a `whsec_<base64>` secret. The package would also take a bare base64 key;
 * the service's secrets always carry the prefix, so one without it is a mistake (a canonical scheme's secret).
 */
function standardWebhook(secret: string): Webhook {
  if (!secret.startsWith("whsec_")) throw new Error("a Standard Webhooks secret starts with whsec_");
  return new Webhook(secret);
}

/** How far a signed timestamp may be from now when a receiver checks it (Standard Webhooks' default). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Whether a received call carries a valid signature of `rawBody` by `secret`, as an integrator checks one: the
 * receiver of `vigia webhooks listen` uses it. `headers` are lowercase; `path` is the URL's path.
 */
export function verifySignature(
  scheme: SigningScheme,
  secret: string,
  call: {
    method: string;
    path: string;
    headers: Record<string, string | undefined>;
    rawBody: string;
    now: number;
  },
): boolean {
  const equal = (a: string, b: string) =>
    a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
  if (scheme === "hmac-canonical") {
    const timestamp = call.headers["x-wavynode-timestamp"];
    const presented = call.headers["x-wavynode-hmac"];
    if (!timestamp || !presented || Math.abs(call.now - Number(timestamp)) > SIGNATURE_TOLERANCE_MS)
      return false;
    // As the original's receivers do: the parsed body under the original's rule (a GET signs {}).
    let json = "{}";
    try {
      if (call.method.toUpperCase() !== "GET" && call.rawBody)
        json = originalCanonicalJson(JSON.parse(call.rawBody));
    } catch {
      return false;
    }
    return equal(presented, hmacCanonical(secret, call.method, call.path, json, timestamp));
  }
  const id = call.headers["webhook-id"];
  const timestamp = call.headers["webhook-timestamp"];
  const signatures = call.headers["webhook-signature"];
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(call.now - Number(timestamp) * 1000) > SIGNATURE_TOLERANCE_MS) return false;
  // As an integrator using the package checks a call (it also holds the timestamp to its tolerance of the system's
  // clock): any of the space-separated `v1,` signatures may match.
  try {
    standardWebhook(secret).verify(
      call.rawBody,
      { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures },
      { jsonParse: false },
    );
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}
