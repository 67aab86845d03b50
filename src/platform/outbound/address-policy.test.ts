// The outbound address policy: private, loopback, link-local (metadata), documentation, multicast and reserved
// addresses are refused, in both families and in IPv6 forms that embed an IPv4 address; public addresses pass.
import { describe, expect, it } from "vitest";
import { allowedWithPrivate, refusedRange } from "./address-policy.ts";

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
    ["fd00:ec2::254", "link-local or metadata"],
    ["fd00:ec2::1", "unique local"],
    ["fe80::1%eth0", "link-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local or metadata"],
    ["64:ff9b::10.0.0.1", "private"],
    ["2002:c0a8:0101::1", "private"],
    // every IPv6 form that carries an IPv4 address, judged by that address
    ["::127.0.0.1", "loopback"],
    ["::a9fe:a9fe", "link-local or metadata"],
    ["::10.1.2.3", "private"],
    ["::0.0.0.2", "unspecified"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::ffff:0:a9fe:a9fe", "link-local or metadata"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local or metadata"],
    ["64:ff9b:1::10.0.0.1", "private"],
    ["64:ff9b:1:ffff::169.254.169.254", "link-local or metadata"],
    ["2002:7f00:1::", "loopback"],
    ["2002:a9fe:a9fe::1", "link-local or metadata"],
    // Teredo: the client's IPv4 address inverted in the last 32 bits (~127.0.0.1 = 80ff:fffe)
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"],
    ["2001::5601:5656", "link-local or metadata"],
  ])("refuses %s (%s)", (ip, range) => {
    expect(refusedRange(ip)).toBe(range);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "::8.8.8.8",
    "::ffff:0:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "64:ff9b:1::808:808",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
  ])("lets %s through", (ip) => {
    expect(refusedRange(ip)).toBeUndefined();
  });

  it("refuses what is not an IP address", () => {
    expect(refusedRange("example.com")).toBe("not an IP address");
  });
});

describe("allowedWithPrivate (VIGIA_ALLOW_PRIVATE_OUTBOUND=true)", () => {
  it("opens loopback and private ranges, never link-local, metadata or the rest", () => {
    for (const ip of ["127.0.0.1", "::1", "10.0.0.1", "192.168.1.1", "fd12::1", "::ffff:127.0.0.1"])
      expect(allowedWithPrivate(refusedRange(ip) as string), ip).toBe(true);
    for (const ip of [
      "169.254.169.254",
      "fd00:ec2::254",
      "fe80::1",
      "64:ff9b:1::a9fe:a9fe",
      "224.0.0.1",
      "0.0.0.0",
    ])
      expect(allowedWithPrivate(refusedRange(ip) as string), ip).toBe(false);
  });
});
