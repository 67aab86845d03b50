// Incidental exposure is not a verdict (docs/decisions/0030): small, negligible receipts from a risky category that
// the address did not spend onward are shown as unsolicited exposure and score at most low; sending to a risky
// address, and material receipts, keep their weight. Each threshold is tested at and just past its value.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, HOUR, T0 } from "../../../test/support/graph-builder.ts";
import type { ExposureEntry } from "../exposure.ts";
import { quickCheck } from "../present.ts";
import { analyseGraph, type RiskAnalysis, type RiskConfig } from "./analyse.ts";
import { DEFAULT_SCORING_PARAMS, SCORING_MODEL_VERSION } from "./params.ts";

const ETH = 10n ** 18n;

function sanctioned(b: GraphBuilder, name = "lazarus"): void {
  b.node(name, { type: "sanctioned", category: "sanctioned", label: `OFAC SDN: ${name}` });
}

/** An ordinary user paid `clean` USD by an employer five days before the dust arrives (inside the 30-day window). */
function user(clean: number, maxDepth = 3): GraphBuilder {
  const b = new GraphBuilder(maxDepth);
  sanctioned(b);
  b.send("employer", "root", clean, T0 - 5 * DAY);
  return b;
}

function analyse(b: GraphBuilder, config?: RiskConfig): RiskAnalysis {
  return analyseGraph(b.build(["root"]), addr("root"), config);
}

function entries(a: RiskAnalysis, category: string, direction: ExposureEntry["direction"]): ExposureEntry[] {
  return a.exposure.entries.filter((e) => e.category === category && e.direction === direction);
}

function expectDust(a: RiskAnalysis): void {
  expect(a.score).toBeLessThanOrEqual(DEFAULT_SCORING_PARAMS.dustMaxPoints);
  expect(["minimal", "low"]).toContain(a.level);
  expect(a.suspiciousActivity).toBe(false);
  expect(a.reason).toContain("unsolicited");
}

function expectCritical(a: RiskAnalysis): void {
  expect(a.level).toBe("critical");
  expect(a.score).toBeGreaterThanOrEqual(93);
  expect(a.reason).not.toContain("unsolicited");
}

describe("the issue's case: USD 2.39 from a sanctioned address to a user with USD 4,775", () => {
  it("is low, with the word unsolicited, and the exposure still shown, at every depth", () => {
    for (const depth of [1, 2, 3]) {
      const b = user(4_775, depth);
      b.send("lazarus", "root", 2.39, T0);
      b.send("root", "shop", 120, T0 + 2 * DAY);
      const a = analyse(b);
      expectDust(a);
      expect(a.level).toBe("low");
      expect(a.score).toBe(DEFAULT_SCORING_PARAMS.dustMaxPoints);
      const [entry] = entries(a, "sanctioned", "incoming");
      expect(entry).toMatchObject({ hops: 1, usd: 2.39, unsolicited: true });
      expect(a.reason).toMatch(
        /^Received unsolicited dust: USD 2\.39 \(0% of its incoming funds\) directly from a sanctioned address \(OFAC SDN: lazarus\), not spent onward\./,
      );
      expect(a.contributions[0]).toMatchObject({ kind: "exposure", name: "sanctioned", points: 25 });
      expect(a.modelVersion).toBe(SCORING_MODEL_VERSION);
    }
  });

  it("is low in the quick check too", () => {
    const b = user(4_775, 1);
    b.send("lazarus", "root", 2.39, T0);
    const q = quickCheck(b.build(["root"]), addr("root"));
    expect(q.level).toBe("low");
    expect(q.risk).toBe(25);
    expect(q.suspiciousActivity).toBe(false);
    expect(q.reason).toContain("unsolicited");
    expect(q.modelVersion).toBe("vigia-risk-1.6.0");
  });
});

describe("the USD amount (dustMaxUsd 10, per category, every receipt and hop together)", () => {
  it("is dust at USD 10 and critical at USD 10.01", () => {
    const at = user(100_000);
    at.send("lazarus", "root", 10, T0);
    expectDust(analyse(at));
    const past = user(100_000);
    past.send("lazarus", "root", 10.01, T0);
    expectCritical(analyse(past));
  });

  it("adds several receipts up: four of USD 2.39 are dust, five are not", () => {
    for (const [count, dust] of [
      [4, true],
      [5, false],
    ] as const) {
      const b = user(100_000);
      for (let i = 0; i < count; i++) b.send("lazarus", "root", 2.39, T0 + i * HOUR);
      const a = analyse(b);
      if (dust) expectDust(a);
      else expectCritical(a);
    }
  });

  it("adds receipts from different addresses of one category up", () => {
    const b = user(100_000);
    sanctioned(b, "garantex");
    b.send("lazarus", "root", 6, T0);
    b.send("garantex", "root", 6, T0 + HOUR);
    expectCritical(analyse(b));
  });

  it("adds direct and traced receipts of one category up", () => {
    const base = () => {
      const b = user(100_000);
      sanctioned(b, "garantex");
      b.send("lazarus", "root", 2, T0);
      // A mule forwards what it got from another sanctioned address on to the user: traced whole (haircut taint).
      b.send("garantex", "mule", 9, T0 - DAY);
      return b;
    };
    const under = base();
    under.send("mule", "root", 7, T0 + HOUR);
    const a = analyse(under);
    expectDust(a);
    expect(entries(a, "sanctioned", "incoming").map((e) => [e.hops, e.unsolicited])).toEqual([
      [1, true],
      [2, true],
    ]);
    const over = base();
    over.send("mule", "root", 9, T0 + HOUR);
    const b = analyse(over);
    expectCritical(b);
    expect(entries(b, "sanctioned", "incoming").every((e) => e.unsolicited === undefined)).toBe(true);
  });

  it("counts categories apart: dust from a sanctioned and from a blocklisted address are each dust", () => {
    const b = user(100_000);
    b.node("phisher", { type: "eoa", category: "blocklisted", label: "Fake_Phishing1" });
    b.send("lazarus", "root", 8, T0);
    b.send("phisher", "root", 8, T0 + HOUR);
    const a = analyse(b);
    expectDust(a);
    expect(entries(a, "blocklisted", "incoming")[0]?.unsolicited).toBe(true);
  });
});

describe("the share of incoming funds (dustMaxShare 1 %)", () => {
  it("is dust at 1 % and critical just above it", () => {
    const at = user(495);
    at.send("lazarus", "root", 5, T0);
    const a = analyse(at);
    expect(entries(a, "sanctioned", "incoming")[0]?.share).toBe(0.01);
    expectDust(a);
    const past = user(490);
    past.send("lazarus", "root", 5, T0);
    expectCritical(analyse(past));
  });

  it("is never dust for an address whose only funds are the receipt (a mule, a fresh address)", () => {
    const b = new GraphBuilder();
    sanctioned(b);
    b.send("lazarus", "root", 2.39, T0);
    expectCritical(analyse(b));
  });
});

describe("spent onward (the dust passed on as it came: the same token, 80-125% of a receipt, within a week; half the dust)", () => {
  /** USD 2 of dust among USD 1,000 received in the window; `spent` sent an hour later. */
  function spending(spent: number, at = T0 + HOUR): RiskAnalysis {
    const b = user(998);
    b.send("lazarus", "root", 2, T0);
    b.send("root", "friend", spent, at);
    return analyse(b);
  }

  it("is not spent onward by ordinary payments from a balance that holds it, however large", () => {
    // Proportional taint would say a send of USD 500 or 998 carries half the dust or all of it: the user paid rent.
    for (const spent of [120, 500, 998]) expectDust(spending(spent));
  });

  it("is spent onward by a send of the dust's own size, at and around the band's edges", () => {
    expectDust(spending(1.59)); // 79.5 % of USD 2
    expectCritical(spending(1.6)); // 80 %
    expectCritical(spending(2.5)); // 125 %
    expectDust(spending(2.51)); // 125.5 %
  });

  it("counts a forward only within a week (dustForwardDays)", () => {
    expectCritical(spending(2, T0 + 7 * DAY));
    expectDust(spending(2, T0 + 7 * DAY + 1));
  });

  it("counts a forward only in the dust's own token: a stablecoin payment of its size after ether dust is not it", () => {
    const b = user(998);
    b.send("lazarus", "root", 1.4, T0, { token: "eth" });
    b.send("root", "shop", 1.69, T0 + DAY);
    expectDust(analyse(b));
    const c = user(998);
    c.send("lazarus", "root", 1.4, T0, { token: "eth" });
    c.send("root", "next", 1.4, T0 + DAY, { token: "eth" });
    expectCritical(analyse(c));
  });

  it("is spent onward when half the dust, receipt by receipt, is passed on", () => {
    const b = user(4_775);
    b.send("lazarus", "root", 2, T0);
    b.send("lazarus", "root", 2, T0 + HOUR);
    b.send("root", "next", 2, T0 + 2 * HOUR);
    expectCritical(analyse(b));
    const c = user(4_775);
    c.send("lazarus", "root", 2, T0);
    c.send("lazarus", "root", 2, T0 + HOUR);
    c.send("lazarus", "root", 2, T0 + 2 * HOUR);
    c.send("root", "next", 2, T0 + 3 * HOUR);
    // USD 2 of USD 6 passed on: a third, under half.
    expectDust(analyse(c));
  });

  it("keeps the weight of dust forwarded as it came", () => {
    const b = new GraphBuilder();
    sanctioned(b);
    // Old funds, outside the 30-day window: the dust is all the address received before it sends.
    b.send("employer", "root", 4_775, T0 - 90 * DAY);
    b.send("lazarus", "root", 2.39, T0);
    b.send("root", "next", 2.39, T0 + HOUR);
    const a = analyse(b);
    expectCritical(a);
  });

  it("does not count sends made before the dust arrived", () => {
    const b = user(4_775);
    b.send("root", "landlord", 4_000, T0 - DAY);
    b.send("lazarus", "root", 2.39, T0);
    expectDust(analyse(b));
  });

  it("does not count the forward of a receipt that carries none of the category (a path traced at nothing)", () => {
    // A far path to the same sanctioned address along which no value is traced (the intermediary was paid by it
    // 40 days before passing anything on, beyond the exposure's 30-day window): the root's receipt on that path is
    // its own money, and passing that on is not passing the dust on. Seen in the eval's multi-root scans.
    const b = user(4_775);
    sanctioned(b, "another-listed-address");
    b.send("another-listed-address", "friend-of-friend", 500, T0 - 45 * DAY, { token: "eth" });
    b.send("friend-of-friend", "friend", 60, T0 - 4 * DAY, { token: "eth" });
    b.send("friend", "root", 49, T0 - 3 * DAY, { token: "eth" });
    b.send("lazarus", "root", 2.39, T0);
    b.send("root", "shop", 49, T0 - 3 * DAY + HOUR, { token: "eth" });
    const a = analyse(b);
    expect(entries(a, "sanctioned", "incoming").some((e) => e.hops === 3 && e.usd === 0)).toBe(true);
    expectDust(a);
  });
});

describe("sending to a risky address always counts", () => {
  it("is critical for USD 1 sent to a sanctioned address, dust received or not", () => {
    for (const dusted of [false, true]) {
      const b = user(100_000);
      if (dusted) b.send("lazarus", "root", 2.39, T0);
      b.send("root", "lazarus", 1, T0 + 2 * DAY);
      const a = analyse(b);
      expect(a.level).toBe("critical");
      expect(entries(a, "sanctioned", "outgoing")[0]?.unsolicited).toBeUndefined();
    }
  });

  it("keeps a deposit of a few dollars into a mixer the mixing pattern", () => {
    const b = user(100_000);
    b.node("pool", { type: "mixer", category: "mixer", label: "Tornado.Cash: 0.1 ETH", isContract: true });
    b.send("root", "pool", 5, T0);
    const a = analyse(b);
    expect(a.patterns).toContain("mixing");
    expect(a.level).toBe("high");
  });
});

describe("mixers", () => {
  function mixerDust(usd: number): RiskAnalysis {
    const b = user(100_000);
    b.node("pool", { type: "mixer", category: "mixer", label: "Tornado.Cash: 0.1 ETH", isContract: true });
    b.send("pool", "root", usd, T0, { token: "eth", value: ETH / 1_000n });
    return analyse(b);
  }

  it("does not make an unsolicited withdrawal into the address its mixing: minimal, named unsolicited", () => {
    const a = mixerDust(2.5);
    expect(a.patterns).toEqual([]);
    expect(a.suspiciousActivity).toBe(false);
    expect(a.level).toBe("minimal");
    expect(a.reason).toContain("unsolicited dust: USD 2.50");
    expect(a.reason).toContain("a mixer address (Tornado.Cash: 0.1 ETH)");
    // The finding stays as evidence.
    expect(a.findings.some((f) => f.pattern === "mixing" && f.subject === addr("root"))).toBe(true);
    expect(entries(a, "mixer", "incoming")[0]?.unsolicited).toBe(true);
  });

  it("keeps a material withdrawal the mixing pattern", () => {
    const a = mixerDust(10.5);
    expect(a.patterns).toEqual(["mixing"]);
    expect(a.level).toBe("high");
    expect(a.suspiciousActivity).toBe(true);
  });

  it("keeps the dust mixing finding out of the quick check's patterns", () => {
    const b = user(100_000, 1);
    b.node("pool", { type: "mixer", category: "mixer", label: "Tornado.Cash: 0.1 ETH", isContract: true });
    b.send("pool", "root", 2.5, T0);
    const q = quickCheck(b.build(["root"]), addr("root"));
    expect(q.patterns).toEqual([]);
    expect(q.level).toBe("minimal");
    expect(q.reason).toContain("unsolicited");
  });
});

describe("other categories and prices", () => {
  it("marks dust from a blocklisted address, and not a material receipt from one", () => {
    const dust = user(100_000);
    dust.node("phisher", { type: "eoa", category: "blocklisted", label: "Fake_Phishing1" });
    dust.send("phisher", "root", 3, T0);
    const a = analyse(dust);
    expect(entries(a, "blocklisted", "incoming")[0]?.unsolicited).toBe(true);
    expect(a.reason).toContain("unsolicited");
    const material = new GraphBuilder();
    material.node("phisher", { type: "eoa", category: "blocklisted", label: "Fake_Phishing1" });
    material.send("phisher", "root", 3, T0);
    const b = analyse(material);
    expect(entries(b, "blocklisted", "incoming")[0]?.unsolicited).toBeUndefined();
    expect(b.level).toBe("high");
  });

  it("never calls a withdrawal from an exchange unsolicited", () => {
    const b = user(100_000);
    b.exchange("binance");
    b.send("binance", "root", 3, T0);
    const a = analyse(b);
    expect(entries(a, "exchange", "incoming")[0]?.unsolicited).toBeUndefined();
    expect(a.reason).not.toContain("unsolicited");
  });

  it("is not dust when the receipt has no USD value, and is when it is a zero-value transfer", () => {
    const unpriced = user(100_000);
    unpriced.send("lazarus", "root", 0, T0, { value: 5_000_000n, usd: null });
    expectCritical(analyse(unpriced));
    const zero = user(100_000);
    zero.send("lazarus", "root", 0, T0, { value: 0n, usd: null });
    expectDust(analyse(zero));
  });
});

describe("the thresholds are parameters", () => {
  it("follows the configuration", () => {
    const b = user(4_775);
    b.send("lazarus", "root", 2.39, T0);
    expectCritical(analyse(b, { scoring: { dustMaxUsd: 2 } }));
    expectCritical(analyse(b, { scoring: { dustMaxShare: 0.0001 } }));
    expect(analyse(b, { scoring: { dustMaxPoints: 10 } }).score).toBe(10);
  });

  it("lets a real pattern of the address count on top of the dust", () => {
    const b = user(100_000);
    b.send("lazarus", "root", 2.39, T0);
    for (let i = 0; i < 3; i++) b.send("root", `payee${i}`, 9_500, T0 + (i + 1) * DAY);
    const a = analyse(b);
    expect(a.patterns).toContain("structuring");
    expect(a.score).toBeGreaterThan(DEFAULT_SCORING_PARAMS.dustMaxPoints);
    expect(a.reason).toContain("unsolicited");
  });
});

describe("dust never lifts a level above low", () => {
  /** A dusted employee of an employer that structures its payments (the employee is only a counterparty in it). */
  function dustedPayee(dust: boolean): RiskAnalysis {
    const b = new GraphBuilder(3);
    sanctioned(b);
    b.send("bank", "employer", 40_000, T0 - 10 * DAY);
    b.send("employer", "root", 9_120, T0 - 5 * DAY);
    b.send("employer", "payee2", 9_850, T0 - 4 * DAY);
    b.send("employer", "payee3", 9_140, T0 - 3 * DAY);
    if (dust) b.send("lazarus", "root", 2.39, T0);
    return analyse(b);
  }

  it("fills at most the room below medium that the address's other points leave", () => {
    const plain = dustedPayee(false);
    expect(plain.findings.map((f) => f.pattern)).toContain("structuring");
    expect(plain.score).toBeGreaterThan(0);
    expect(plain.score).toBeLessThan(DEFAULT_SCORING_PARAMS.dustMaxPoints);
    const dusted = dustedPayee(true);
    // The payee's pattern points plus the dust's 25 would pass 40: the dust fills the room up to 39.
    expect(plain.score + DEFAULT_SCORING_PARAMS.dustMaxPoints).toBeGreaterThanOrEqual(40);
    expect(dusted.score).toBe(39);
    expect(dusted.level).toBe("low");
    expect(dusted.suspiciousActivity).toBe(false);
    expect(dusted.reason).toContain("unsolicited");
  });
});
