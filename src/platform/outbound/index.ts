// Outbound HTTP to URLs that configuration names, safe against SSRF and DNS rebinding (client.ts), and the
// address policy it applies (address-policy.ts).
export { allowedWithPrivate, embeddedIpv4, refusedRange } from "./address-policy.ts";
export {
  DEFAULT_OUTBOUND_OPTIONS,
  OutboundClient,
  OutboundError,
  type OutboundErrorKind,
  type OutboundOptions,
  type OutboundRequest,
  type OutboundResponse,
  type ResolvedAddress,
} from "./client.ts";
