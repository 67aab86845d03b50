// Scoring (docs/risk-model.md): sanctioned at 1 hop is critical and overrides everything; level bands at their edges;
// the same input gives the same output; the exchange discount never hides sanctions; riskReason names the
// drivers with figures; every result records the model version.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, HOUR, shuffled, T0 } from "../../../test/support/graph-builder.ts";
import { quickCheck } from "../present.ts";
import { analyseGraph, analyseRoots } from "./analyse.ts";
import { LEVEL_FLOORS, levelFor, RISK_LEVELS, type RiskLevel } from "./levels.ts";
import { SCORING_MODEL_VERSION } from "./params.ts";

const ETH = 10n ** 18n;

function sanctionedNode(b: GraphBuilder): void {
  b.node("lazarus", { type: "sanctioned", category: "sanctioned", label: "OFAC SDN: Lazarus Group" });
}

function mixerNode(b: GraphBuilder): void {
  b.node("pool", { type: "mixer", category: "mixer", label: "Tornado.Cash: 1 ETH", isContract: true });
}

/** A user with ordinary income, a structuring pattern and a deposit into a mixer. */
function busyGraph(): GraphBuilder {
  const b = new GraphBuilder();
  mixerNode(b);
  b.send("employer", "user", 40_000, T0 - DAY);
  b.send("user", "pool", 2_500, T0, { token: "eth", value: ETH });
  b.send("user", "a", 9_120, T0 + HOUR);
  b.send("user", "b", 9_850, T0 + DAY);
  b.send("user", "c", 9_140, T0 + 2 * DAY);
  b.send("a", "d", 5_000, T0 + 3 * DAY);
  return b;
}

describe("sanctions", () => {
  it("makes direct (1 hop) exposure to a sanctioned address critical, whatever its share", () => {
    for (const [tainted, clean] of [
      [12_000, 0],
      [100, 99_900],
    ] as const) {
      const b = new GraphBuilder();
      sanctionedNode(b);
      b.send("lazarus", "root", tainted, T0);
      if (clean) b.send("employer", "root", clean, T0 + DAY);
      const a = analyseGraph(b.build(["root"]), addr("root"));
      expect(a.level).toBe("critical");
      expect(a.score).toBeGreaterThanOrEqual(80);
      expect(a.suspiciousActivity).toBe(true);
    }
  });

  it("makes illicit direct exposure critical too, outgoing as well as incoming", () => {
    const b = new GraphBuilder();
    b.node("hacker", { type: "illicit", category: "illicit", label: "Ronin Bridge exploiter" });
    b.send("employer", "root", 5_000, T0);
    b.send("root", "hacker", 50, T0 + DAY);
    expect(analyseGraph(b.build(["root"]), addr("root")).level).toBe("critical");
  });

  it("scores an address that is itself sanctioned 100", () => {
    const b = new GraphBuilder();
    sanctionedNode(b);
    b.send("lazarus", "someone", 10, T0);
    const a = analyseGraph(b.build(["lazarus"]), addr("lazarus"));
    expect(a.score).toBe(100);
    expect(a.reason).toContain("The address itself is labelled sanctioned (OFAC SDN: Lazarus Group)");
  });

  it("keeps funds forwarded whole from a sanctioned address critical, with a lower score at every hop", () => {
    const b = new GraphBuilder();
    sanctionedNode(b);
    b.send("lazarus", "hop1", 20_000, T0);
    b.send("hop1", "hop2", 18_000, T0 + DAY);
    b.send("hop2", "hop3", 16_000, T0 + 3 * DAY);
    const graph = b.build(["hop1", "hop2", "hop3"]);
    const [d1, d2, d3] = ["hop1", "hop2", "hop3"].map((r) => analyseGraph(graph, addr(r)));
    expect([d1?.level, d2?.level, d3?.level]).toEqual(["critical", "critical", "critical"]);
    // The top of each band (params.ts): direct 93-100, traced 87-92 at 2 hops, 84-86 at 3.
    expect([d1?.score, d2?.score, d3?.score]).toEqual([100, 92, 86]);
    expect(d2?.reason).toContain(
      "Received USD 18,000 (100% of its incoming funds) from a sanctioned address 2 hops away",
    );
  });

  it("lowers the level with every hop when the traced share is below the critical line", () => {
    // Each hop has income of its own: hop2's funds are 30 % traced to Lazarus, hop3's 9 %.
    const b = new GraphBuilder();
    sanctionedNode(b);
    b.send("lazarus", "hop1", 20_000, T0);
    b.send("hop1", "hop2", 6_000, T0 + DAY);
    b.send("employer", "hop2", 14_000, T0 + DAY);
    b.send("hop2", "hop3", 6_000, T0 + 3 * DAY);
    b.send("employer", "hop3", 14_000, T0 + 3 * DAY);
    const graph = b.build(["hop1", "hop2", "hop3"]);
    const [d1, d2, d3] = ["hop1", "hop2", "hop3"].map((r) => analyseGraph(graph, addr(r)));
    expect([d1?.level, d2?.level, d3?.level]).toEqual(["critical", "medium", "low"]);
    expect(d1?.score).toBeGreaterThan(d2?.score ?? 100);
    expect(d2?.score).toBeGreaterThan(d3?.score ?? 100);
  });

  it("lowers indirect exposure with a smaller share of funds", () => {
    const scoreWithClean = (clean: number) => {
      const b = new GraphBuilder();
      sanctionedNode(b);
      b.send("lazarus", "hop1", 10_000, T0);
      b.send("hop1", "root", 1_000, T0 + DAY);
      if (clean) b.send("employer", "root", clean, T0 + DAY);
      return analyseGraph(b.build(["root"]), addr("root")).score;
    };
    expect(scoreWithClean(0)).toBeGreaterThan(scoreWithClean(9_000));
    expect(scoreWithClean(9_000)).toBeGreaterThan(scoreWithClean(99_000));
  });
});

describe("exchange discount", () => {
  it("discounts an exchange's behavioural score by 80% but never its sanctions exposure", () => {
    const build = (labelled: boolean, withSanctions: boolean) => {
      const b = new GraphBuilder();
      mixerNode(b);
      sanctionedNode(b);
      if (labelled) b.exchange("root", "Bitso: hot wallet");
      b.send("customer", "root", 10_000, T0);
      b.send("root", "pool", 2_500, T0 + HOUR, { token: "eth", value: ETH });
      if (withSanctions) b.send("lazarus", "root", 5_000, T0 + DAY);
      return analyseGraph(b.build(["root"]), addr("root"));
    };
    const plain = build(false, false);
    const exchange = build(true, false);
    const mixing = (a: typeof plain) => a.contributions.find((c) => c.name === "mixing");
    expect(mixing(plain)?.points).toBe(85);
    expect(mixing(exchange)?.points).toBe(17);
    expect(mixing(exchange)?.discounted).toBe(true);
    expect(exchange.score).toBeLessThan(plain.score);
    expect(exchange.reason).toContain("patterns discounted 80% for a labelled exchange");

    const sanctionedExchange = build(true, true);
    expect(sanctionedExchange.level).toBe("critical");
    expect(sanctionedExchange.score).toBeGreaterThanOrEqual(80);
    expect(sanctionedExchange.contributions[0]).toMatchObject({ kind: "exposure", name: "sanctioned" });
    expect(sanctionedExchange.reason).toMatch(
      /^Received USD 5,000 \(33% of its incoming funds\) directly from/,
    );
  });
});

describe("levels", () => {
  const edges: [number, RiskLevel][] = [
    [-5, "minimal"],
    [0, "minimal"],
    [19, "minimal"],
    [19.4, "minimal"],
    [19.5, "low"],
    [20, "low"],
    [39, "low"],
    [40, "medium"],
    [59, "medium"],
    [60, "high"],
    [79, "high"],
    [80, "critical"],
    [100, "critical"],
    [150, "critical"],
  ];
  it.each(edges)("score %d is %s", (score, level) => {
    expect(levelFor(score)).toBe(level);
  });

  it("has the level bands of docs/risk-model.md", () => {
    expect(RISK_LEVELS.map((l) => LEVEL_FLOORS[l])).toEqual([0, 20, 40, 60, 80]);
  });
});

describe("determinism and versioning", () => {
  it("gives the same result for the same graph, in any order, every time", () => {
    const graph = busyGraph().build(["user"]);
    const reference = analyseGraph(graph, addr("user"));
    expect(analyseGraph(graph, addr("user"))).toEqual(reference);
    for (const seed of [3, 5, 8, 13])
      expect(analyseGraph(shuffled(graph, seed), addr("user"))).toEqual(reference);
    expect(JSON.stringify(analyseRoots(shuffled(graph, 21)))).toBe(JSON.stringify(analyseRoots(graph)));
  });

  it("records the model version and a fingerprint of the configuration", () => {
    const graph = busyGraph().build(["user"]);
    const a = analyseGraph(graph, addr("user"));
    const b = analyseGraph(graph, addr("user"), { scoring: { hopDecay: 0.5 } });
    expect(a.modelVersion).toBe(SCORING_MODEL_VERSION);
    expect(a.configFingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(b.configFingerprint).not.toBe(a.configFingerprint);
    expect(analyseGraph(graph, addr("user"), {}).configFingerprint).toBe(a.configFingerprint);
  });

  it("adds patterns by severity and confidence, capped at 100", () => {
    const a = analyseGraph(busyGraph().build(["user"]), addr("user"));
    expect(a.patterns).toEqual(["mixing", "structuring"]);
    const total = a.contributions.reduce((s, c) => s + c.points, 0);
    expect(a.score).toBe(Math.min(100, Math.round(total)));
    expect(a.contributions.map((c) => c.name)).toEqual(["mixing", "structuring"]);
    // the strongest pattern fully, the next at half its weight
    expect(a.contributions[0]?.points).toBe(85);
    expect(a.contributions[1]?.points).toBeCloseTo(65 * 0.8 * 0.5, 1);
  });
});

describe("riskReason", () => {
  it("names the main drivers with their figures in one or two sentences", () => {
    const a = analyseGraph(busyGraph().build(["user"]), addr("user"));
    expect(a.reason).toContain("Sent 1 ETH (USD 2,500) in 1 transfer directly to Tornado.Cash: 1 ETH");
    expect(a.reason).toContain("Sent 3 transfers of USD 9,120–9,850 within 2.0 days");
    expect(a.reason.split(/\.\s/).length).toBeLessThanOrEqual(2);
  });

  it("names the sanctioned counterparty, the amount and the share", () => {
    const b = new GraphBuilder();
    sanctionedNode(b);
    b.send("lazarus", "hop1", 20_000, T0);
    b.send("hop1", "root", 12_000, T0 + DAY);
    const a = analyseGraph(b.build(["root"]), addr("root"));
    expect(a.reason).toBe(
      `Received USD 12,000 (100% of its incoming funds) from a sanctioned address 2 hops away (OFAC SDN: Lazarus Group) via ${addr("hop1").slice(0, 6)}…${addr("hop1").slice(-4)}.`,
    );
  });

  it("says why nothing was found, with figures", () => {
    const b = new GraphBuilder();
    b.send("employer", "root", 2_000, T0);
    b.send("root", "shop", 150, T0 + DAY);
    const a = analyseGraph(b.build(["root"]), addr("root"));
    expect(a.level).toBe("minimal");
    expect(a.suspiciousActivity).toBe(false);
    expect(a.reason).toBe(
      "No risk indicators: 2 transfers (USD 2,000 in, USD 150 out) with 2 counterparties, no exposure to sanctioned, illicit or mixer addresses and no suspicious pattern it takes part in within 3 hops.",
    );
  });

  it("weighs a finding less for its counterparties than for its actor", () => {
    const b = busyGraph();
    const graph = b.build(["user", "a"]);
    const payee = analyseGraph(graph, addr("a"));
    expect(payee.patterns).toEqual([]);
    expect(payee.reason).toContain(`Counterparty of ${addr("user").slice(0, 6)}`);
    expect(payee.score).toBeLessThan(analyseGraph(graph, addr("user")).score);
  });

  // Found by the eval's benchmark (vigia-risk-1.1.0): a busy merchant that receives three payments of 85-100% of a
  // threshold within a week meets the structuring definition; its other customers have no part in that finding and
  // used to get points for it at 1 hop, raising plain users to "low" and blurring the sanctions distance ordering.
  it("gives no points for a finding the address has no part in, however near (a hub's own finding)", () => {
    const b = new GraphBuilder();
    for (const [i, usd] of [920, 955, 980].entries())
      b.send(`big-spender${i}`, "merchant", usd, T0 + i * DAY);
    b.send("employer", "customer", 1_500, T0 - DAY);
    b.send("customer", "merchant", 40, T0 + HOUR);
    const graph = b.build(["customer", "merchant"]);
    const merchant = analyseGraph(graph, addr("merchant"));
    expect(merchant.patterns).toEqual(["structuring"]);
    const customer = analyseGraph(graph, addr("customer"));
    expect(customer.findings.map((f) => f.pattern)).toEqual(["structuring"]);
    expect(customer.patterns).toEqual([]);
    expect(customer.contributions).toEqual([]);
    expect(customer.score).toBe(0);
    expect(customer.level).toBe("minimal");
    expect(customer.reason).toContain("no suspicious pattern it takes part in within 3 hops");
    // configurable: with a factor for nearby findings, the old behaviour
    const near = analyseGraph(graph, addr("customer"), { scoring: { nearbyPatternFactor: 0.3 } });
    expect(near.score).toBeGreaterThan(0);
  });
});

describe("quickCheck", () => {
  it("gives the quick risk result of docs/api.md", () => {
    const b = new GraphBuilder(1);
    mixerNode(b);
    b.send("employer", "user", 4_000, T0 - DAY);
    b.send("user", "pool", 2_500, T0, { token: "eth", value: ETH });
    const q = quickCheck(b.build(["user"]), addr("user"));
    expect(q.risk).toBe(85);
    expect(q.level).toBe("critical");
    expect(q.modelVersion).toBe(SCORING_MODEL_VERSION);
    expect(q.patterns).toEqual([
      {
        name: "mixing",
        severity: "critical",
        involvedWallets: [addr("user"), addr("pool")],
        involvedTxs: [expect.stringMatching(/^0x[0-9a-f]{64}$/)],
        usdAmount: 2_500,
        message:
          "Sent 1 ETH (USD 2,500) in 1 transfer directly to Tornado.Cash: 1 ETH, each exactly a fixed pool denomination.",
      },
    ]);
  });
});
