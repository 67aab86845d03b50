// Structuring over an owner's wallets: a series of near-threshold transfers spread over days and over fresh wallets
// one address funded (at most two from each) is the owner's; an employer's staff, a family's unrelated wallets and
// a payroll by hand are never merged.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, HOUR, T0 } from "../../../test/support/graph-builder.ts";
import { analyseGraph } from "../scoring/analyse.ts";
import { DEFAULT_STRUCTURING_PARAMS, detectStructuring } from "./structuring.ts";

const THRESHOLD = 10_000;

/** The owner funds `wallets` fresh wallets; they send `amounts` (USD) to the beneficiary, spread over `days`. */
function smurf(amounts: number[], wallets: number, days: number) {
  const b = new GraphBuilder(3);
  b.send("source", "owner", amounts.reduce((s, v) => s + v, 0) * 1.1, T0);
  const perWallet = new Map<string, number[]>();
  amounts.forEach((usd, i) => {
    const w = `w${i % wallets}`;
    perWallet.set(w, [...(perWallet.get(w) ?? []), usd]);
  });
  for (const [w, list] of perWallet) {
    b.send("owner", w, list.reduce((s, v) => s + v, 0) + 20, T0 + HOUR);
  }
  const step = (days * DAY) / Math.max(1, amounts.length - 1);
  amounts.forEach((usd, i) => {
    b.send(`w${i % wallets}`, "beneficiary", usd, T0 + 2 * HOUR + i * step);
  });
  return b;
}

describe("structuring over an owner's wallets", () => {
  for (const [transfers, wallets, days] of [
    [3, 3, 2.5],
    [5, 3, 4],
    [7, 4, 6.5],
    [6, 5, 5],
  ] as const) {
    it(`finds ${transfers} transfers over ${wallets} wallets and ${days} days, naming the wallets`, () => {
      const amounts = Array.from({ length: transfers }, (_, i) => THRESHOLD * (0.86 + (i % 5) * 0.03));
      const b = smurf(amounts, wallets, days);
      const a = analyseGraph(b.build(["owner"]), addr("owner"));
      const finding = a.findings.find(
        (f) => f.pattern === "structuring" && f.thresholds.ownerWallets !== undefined,
      );
      expect(finding, a.reason).toBeDefined();
      expect(finding?.thresholds.ownerWallets).toBe(wallets);
      expect(finding?.message).toContain("wallets of one owner");
      for (let w = 0; w < wallets; w++) expect(finding?.actors).toContain(addr(`w${w}`));
      expect(a.patterns).toContain("structuring");
      // Scanned from one of the wallets, the same finding is its own.
      const fromWallet = analyseGraph(b.build(["w0"]), addr("w0"));
      expect(fromWallet.patterns).toContain("structuring");
    });
  }

  it("does not merge an employer's staff who each cash their salary out", () => {
    const b = new GraphBuilder(3);
    b.send("company", "employer", 200_000, T0);
    for (let i = 0; i < 6; i++) {
      b.send("employer", `staff${i}`, 6_400, T0 + DAY);
      // Each has a life: rent and shops, and cashes part of the salary out just under USD 3,000.
      b.send(`staff${i}`, "landlord", 1_800, T0 + 2 * DAY);
      b.send(`staff${i}`, `shop${i}`, 120, T0 + 3 * DAY);
      b.send(`staff${i}`, "exchange-deposit", 2_850, T0 + 5 * DAY);
    }
    const findings = detectStructuring(b.build(["employer"]), DEFAULT_STRUCTURING_PARAMS);
    expect(findings.filter((f) => f.thresholds.ownerWallets !== undefined)).toEqual([]);
    expect(findings.filter((f) => f.subject === addr("employer"))).toEqual([]);
  });

  it("does not merge wallets funded by several people, nor one funded before it was fresh", () => {
    const b = smurf([9_000, 9_200, 9_400, 9_600], 3, 4);
    b.send("grandma", "w1", 200, T0 + HOUR); // w1 has a second source
    b.send("old-friend", "w2", 300, T0 - 30 * DAY); // w2 was not fresh when the owner funded it
    const findings = detectStructuring(b.build(["owner"]), DEFAULT_STRUCTURING_PARAMS);
    expect(findings.filter((f) => f.thresholds.ownerWallets !== undefined)).toEqual([]);
  });

  it("does not read a payroll by hand to many fresh wallets as one owner's", () => {
    const amounts = Array.from({ length: 12 }, () => 9_300);
    const b = smurf(amounts, 12, 5);
    const findings = detectStructuring(b.build(["owner"]), DEFAULT_STRUCTURING_PARAMS);
    expect(findings.filter((f) => f.thresholds.ownerWallets !== undefined)).toEqual([]);
  });

  it("leaves two transfers over two wallets alone, and transfers outside the band", () => {
    expect(
      detectStructuring(smurf([9_500, 9_600], 2, 3).build(["owner"]), DEFAULT_STRUCTURING_PARAMS),
    ).toEqual([]);
    expect(
      detectStructuring(
        smurf([7_000, 7_500, 8_000], 3, 3).build(["owner"]),
        DEFAULT_STRUCTURING_PARAMS,
      ).filter((f) => f.thresholds.thresholdUsd === THRESHOLD),
    ).toEqual([]);
  });

  it("keeps to the window: a series over more than 7 days is not one", () => {
    const b = smurf([9_000, 9_200, 9_400], 3, 7.5);
    const findings = detectStructuring(b.build(["owner"]), DEFAULT_STRUCTURING_PARAMS);
    expect(findings.filter((f) => f.thresholds.ownerWallets !== undefined)).toEqual([]);
  });

  it("can be switched off", () => {
    const b = smurf([9_000, 9_200, 9_400], 3, 3);
    const on = detectStructuring(b.build(["owner"]), DEFAULT_STRUCTURING_PARAMS);
    const off = detectStructuring(b.build(["owner"]), { ...DEFAULT_STRUCTURING_PARAMS, ownerWallets: null });
    expect(on.filter((f) => f.thresholds.ownerWallets !== undefined)).toHaveLength(1);
    expect(off.filter((f) => f.thresholds.ownerWallets !== undefined)).toEqual([]);
  });
});
