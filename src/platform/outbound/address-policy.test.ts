// The outbound address policy: private, loopback, link-local (metadata), documentation, multicast and reserved
// addresses are refused, in both families and in IPv6 forms that embed an IPv4 address; public addresses pass.
import { describe, expect, it } from "vitest";
import { refusedRange } from "./address-policy.ts";

describe("refusedRange", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local or metadata"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd00:ec2::254", "unique local"],
    ["fe80::1%eth0", "link-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local or metadata"],
    ["64:ff9b::10.0.0.1", "private"],
    ["2002:c0a8:0101::1", "private"],
  ])("refuses %s (%s)", (ip, range) => {
    expect(refusedRange(ip)).toBe(range);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "lets %s through",
    (ip) => {
      expect(refusedRange(ip)).toBeUndefined();
    },
  );

  it("refuses what is not an IP address", () => {
    expect(refusedRange("example.com")).toBe("not an IP address");
  });
});
