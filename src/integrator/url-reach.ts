// Whether an integration URL names an address this service will never call, judged when the URL is set (PATCH) so
// that the integrator hears why at once, not from a notification that silently never arrives. Only what the URL
// itself says is judged: an IP literal, or `localhost` and its subdomains (which resolve to loopback by RFC 6761).
// A name is resolved at each call, where the outbound client applies the same policy to the address it gets.
import { allowedWithPrivate, refusedRange } from "../platform/outbound/index.ts";

const LOOPBACK_NAMES = /^(localhost|.+\.localhost)\.?$/i;

/** Why a call to `url` would be refused here, with the setting that allows it where one does; undefined if none. */
export function unreachableIntegrationUrl(url: string, allowPrivate: boolean): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined; // the schema's pattern speaks for a malformed URL
  }
  const ip = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const range = LOOPBACK_NAMES.test(ip) ? "loopback" : refusedRange(ip);
  if (range === undefined || range === "not an IP address") return undefined;
  if (!allowedWithPrivate(range))
    return `${host} is a ${range} address, which this service never calls (whatever its settings)`;
  if (allowPrivate) return undefined;
  return `${host} is a ${range} address, and this service does not call private networks: every notification and profile read would be refused. Give the integrator's public URL, or, where the integrator runs on this machine or network (on-premise, a test), start the service with VIGIA_ALLOW_PRIVATE_OUTBOUND=true`;
}
