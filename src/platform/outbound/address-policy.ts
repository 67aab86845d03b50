// Which IP addresses an outbound call may reach. Calls to integrators, explorers and LLMs go to addresses that
// other people's configuration names, so a URL must not reach the service's own machine, its network or a cloud
// metadata endpoint (SSRF). Refused unless the operator allows private outbound calls: loopback, private (RFC 1918,
// unique local), carrier-grade NAT, link-local (which holds 169.254.169.254, the metadata address), documentation,
// benchmarking, multicast, reserved and unspecified ranges, and IPv6 forms that embed an IPv4 address (compatible,
// mapped, translated, NAT64 and local-use NAT64, 6to4, Teredo) are judged by the address they embed. Even where the
// operator allows private outbound calls, link-local addresses and cloud metadata endpoints are never called
// (`allowedWithPrivate`).
import net from "node:net";

const RANGES: [string, string, number, "ipv4" | "ipv6"][] = [
  ["unspecified", "0.0.0.0", 8, "ipv4"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["carrier-grade NAT", "100.64.0.0", 10, "ipv4"],
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["link-local or metadata", "169.254.0.0", 16, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["IETF protocol assignments", "192.0.0.0", 24, "ipv4"],
  ["documentation", "192.0.2.0", 24, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  ["benchmarking", "198.18.0.0", 15, "ipv4"],
  ["documentation", "198.51.100.0", 24, "ipv4"],
  ["documentation", "203.0.113.0", 24, "ipv4"],
  ["multicast", "224.0.0.0", 4, "ipv4"],
  ["reserved", "240.0.0.0", 4, "ipv4"],
  ["unspecified", "::", 128, "ipv6"],
  ["loopback", "::1", 128, "ipv6"],
  ["unique local", "fc00::", 7, "ipv6"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["link-local or metadata", "fd00:ec2::254", 128, "ipv6"],
  ["multicast", "ff00::", 8, "ipv6"],
  ["documentation", "2001:db8::", 32, "ipv6"],
];

const lists = new Map<string, net.BlockList>();
for (const [name, network, prefix, type] of RANGES) {
  let list = lists.get(name);
  if (!list) {
    list = new net.BlockList();
    lists.set(name, list);
  }
  list.addSubnet(network, prefix, type);
}

/**
 * The IPv4 address an IPv6 address carries, if any: IPv4-compatible ::a.b.c.d (deprecated, but a stack may still
 * route it to the IPv4 address), IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96
 * and local-use NAT64 64:ff9b:1::/48 (the IPv4 address in the last 32 bits), 6to4 2002:AABB:CCDD::/48 (bits 16-47),
 * and Teredo 2001:0::/32 (the client's IPv4 address, inverted, in the last 32 bits).
 */
export function embeddedIpv4(ipv6: string): string | undefined {
  const groups = expandIpv6(ipv6);
  if (!groups) return undefined;
  const g = (i: number) => groups[i] as number;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0);
  // ::a.b.c.d, but not :: and ::1 (unspecified and loopback, judged as IPv6 below)
  if (zeros(0, 6) && (g(6) !== 0 || g(7) > 1)) return v4(g(6), g(7));
  if (zeros(0, 5) && g(5) === 0xffff) return v4(g(6), g(7));
  if (zeros(0, 4) && g(4) === 0xffff && g(5) === 0) return v4(g(6), g(7));
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return v4(g(6), g(7));
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return v4(g(6), g(7));
  if (g(0) === 0x2002) return v4(g(1), g(2));
  if (g(0) === 0x2001 && g(1) === 0) return v4(g(6) ^ 0xffff, g(7) ^ 0xffff);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().split("%")[0] as string;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = (dotted[1] as string).split(".").map(Number);
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    text = `${text.slice(0, dotted.index)}${hex(parts[0] as number, parts[1] as number)}:${hex(parts[2] as number, parts[3] as number)}`;
  }
  const [head, tail] = text.split("::");
  const split = (s: string | undefined) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = split(head);
  const right = split(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...left, ...new Array(tail === undefined ? 0 : missing).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

/** Why an IP address may not be called (the name of its range), or undefined when it is a public address. */
export function refusedRange(ip: string): string | undefined {
  const family = net.isIP(ip);
  if (family === 0) return "not an IP address";
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4 !== undefined) return refusedRange(v4);
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [name, list] of lists) if (list.check(ip, type)) return name;
  return undefined;
}

/** The ranges VIGIA_ALLOW_PRIVATE_OUTBOUND opens: the operator's own machine and networks, never link-local or metadata. */
const OPENED_BY_ALLOW_PRIVATE = new Set(["loopback", "private", "unique local", "carrier-grade NAT"]);

/** Whether a range `refusedRange` named may be called where the operator allows private outbound calls. */
export function allowedWithPrivate(range: string): boolean {
  return OPENED_BY_ALLOW_PRIVATE.has(range);
}
