// Who may read /metrics without a key: the addresses and networks of VIGIA_METRICS_ALLOW (a Prometheus server,
// say). Everyone else needs an admin key. Addresses are compared as Node's BlockList compares them; an IPv4
// address seen as IPv6 (::ffff:10.0.0.5) is matched as IPv4.
import net from "node:net";

export class AddressAllowList {
  readonly #list = new net.BlockList();
  readonly size: number;

  /** `entries`: addresses (10.0.0.5, ::1) and networks (10.0.0.0/8, fd00::/8). Throws on a malformed one. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, bits, extra] = entry.split("/");
      const family = net.isIP(address ?? "");
      if (!address || family === 0 || extra !== undefined)
        throw new Error(`"${entry}" is not an IP address or network`);
      const type = family === 4 ? "ipv4" : "ipv6";
      if (bits === undefined) {
        this.#list.addAddress(address, type);
        continue;
      }
      const prefix = Number(bits);
      if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128))
        throw new Error(`"${entry}" has no valid prefix length`);
      this.#list.addSubnet(address, prefix, type);
    }
    this.size = entries.length;
  }

  allows(address: string): boolean {
    if (this.size === 0) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const plain = mapped ? (mapped[1] as string) : address;
    const family = net.isIP(plain);
    if (family === 0) return false;
    return this.#list.check(plain, family === 4 ? "ipv4" : "ipv6");
  }
}
