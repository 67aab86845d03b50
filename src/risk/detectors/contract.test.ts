// The contract every detector keeps (one table, seven rows): an empty graph gives nothing; a positive fixture is
// found with the right evidence (subject, wallets, transactions, USD amount, thresholds, figures in the message);
// a near miss just outside the definition is not found; shuffling the graph's nodes and edges changes nothing.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, HOUR, shuffled, T0 } from "../../../test/support/graph-builder.ts";
import type { Finding, PatternName } from "../findings.ts";
import type { GraphEdge, TxGraph } from "../graph/types.ts";
import { NO_TRUNCATION } from "../graph/types.ts";
import { DEFAULT_EXCHANGE_HOPPING_PARAMS, detectExchangeHopping } from "./exchange-hopping.ts";
import { DEFAULT_MASS_WALLET_CREATION_PARAMS, detectMassWalletCreation } from "./mass-wallet-creation.ts";
import { DEFAULT_MIXING_PARAMS, detectMixing } from "./mixing.ts";
import { DEFAULT_PEEL_CHAIN_PARAMS, detectPeelChain } from "./peel-chain.ts";
import { DEFAULT_ROUND_TRIPPING_PARAMS, detectRoundTripping } from "./round-tripping.ts";
import { DEFAULT_STRUCTURING_PARAMS, detectStructuring } from "./structuring.ts";
import { DEFAULT_WASH_TRADING_PARAMS, detectWashTrading } from "./wash-trading.ts";

interface Fixture {
  graph: TxGraph;
  /** the edges the finding must cite */
  evidence: GraphEdge[];
}

interface Expected {
  subject: string;
  wallets: string[];
  actors?: string[];
  usd: number;
  thresholds: Record<string, number | string>;
  /** figures the message must name */
  mentions: string[];
  confidence?: number;
}

interface Row {
  pattern: PatternName;
  run: (graph: TxGraph) => Finding[];
  positive(): Fixture;
  expected: Expected;
  nearMiss(): TxGraph;
  /** what makes the near miss a miss */
  nearMissIs: string;
}

const eth = { token: "eth" as const };
const ETH = 10n ** 18n;

const mixingGraph = (): Fixture => {
  const b = new GraphBuilder(3);
  b.node("mixer", { type: "mixer", category: "mixer", label: "Tornado.Cash: 1 ETH", isContract: true });
  b.send("payroll", "user", 12_000, T0 - DAY);
  const evidence = [
    b.send("user", "mixer", 2_500, T0, { ...eth, value: ETH }),
    b.send("user", "mixer", 2_500, T0 + HOUR, { ...eth, value: ETH }),
  ];
  return { graph: b.build(["user"]), evidence };
};

/** The user pays a friend, but only after the friend deposited into the mixer: no funds of the user reached it. */
const nearMixingGraph = (): TxGraph => {
  const b = new GraphBuilder(3);
  b.node("mixer", { type: "mixer", category: "mixer", label: "Tornado.Cash: 1 ETH", isContract: true });
  b.send("payroll", "user", 12_000, T0 - DAY);
  b.send("friend-income", "friend", 5_000, T0 - 2 * DAY);
  b.send("friend", "mixer", 2_500, T0, { ...eth, value: ETH });
  b.send("user", "friend", 2_500, T0 + HOUR, eth);
  return b.build(["user"]);
};

const peelGraph = (lastForward: number): Fixture => {
  const b = new GraphBuilder(3);
  const e = [
    b.send("source", "h0", 10_000, T0),
    b.send("h0", "p1", 1_000, T0 + DAY),
    b.send("h0", "h1", 8_900, T0 + DAY + 60),
    b.send("h1", "p2", 900, T0 + 2 * DAY),
    b.send("h1", "h2", 7_900, T0 + 2 * DAY + 60),
    b.send("h2", "p3", 800, T0 + 3 * DAY),
    b.send("h2", "h3", lastForward, T0 + 3 * DAY + 60),
  ];
  return { graph: b.build(["h0"]), evidence: e };
};

const structuringGraph = (lastDay: number): Fixture => {
  const b = new GraphBuilder(3);
  b.send("bank", "smurf", 40_000, T0 - DAY);
  const e = [
    b.send("smurf", "payee1", 9_120, T0),
    b.send("smurf", "payee2", 9_850, T0 + 2 * DAY),
    b.send("smurf", "payee3", 9_140, T0 + lastDay * DAY),
  ];
  return { graph: b.build(["smurf"]), evidence: e };
};

const roundTripGraph = (returned: number): Fixture => {
  const b = new GraphBuilder(3);
  b.send("income", "origin", 12_000, T0 - DAY);
  const e = [
    b.send("origin", "layer1", 10_000, T0),
    b.send("layer1", "layer2", 9_800, T0 + 2 * DAY),
    b.send("layer2", "layer3", 9_500, T0 + 5 * DAY),
    b.send("layer3", "origin", returned, T0 + 10 * DAY),
  ];
  return { graph: b.build(["origin"]), evidence: e };
};

const massGraph = (lastAfterHours: number): Fixture => {
  const b = new GraphBuilder(3);
  b.send("bank", "funder", 5_000, T0 - DAY);
  const e: GraphEdge[] = [];
  for (let i = 0; i < 10; i++) {
    const at = i === 9 ? T0 + lastAfterHours * HOUR : T0 + i * 2 * HOUR;
    e.push(b.send("funder", `child${i}`, 100 + 2 * i, at));
  }
  return { graph: b.build(["funder"]), evidence: e };
};

const washGraph = (lastBackDay: number): Fixture => {
  const b = new GraphBuilder(3);
  b.send("seed", "trader-a", 5_000, T0 - DAY);
  const e = [
    b.send("trader-a", "trader-b", 1_000, T0),
    b.send("trader-b", "trader-a", 990, T0 + 6 * HOUR),
    b.send("trader-a", "trader-b", 1_010, T0 + DAY),
    b.send("trader-b", "trader-a", 1_000, T0 + DAY + 6 * HOUR),
    b.send("trader-a", "trader-b", 980, T0 + 2 * DAY),
    b.send("trader-b", "trader-a", 1_020, T0 + lastBackDay * DAY),
  ];
  return { graph: b.build(["trader-a"]), evidence: e };
};

const hoppingGraph = (restHours: number): Fixture => {
  const b = new GraphBuilder(3);
  b.exchange("bitso-deposit", "Bitso: deposit address");
  b.exchange("bitso-hot", "Bitso: hot wallet");
  b.exchange("binance-deposit", "Binance: deposit address");
  b.send("source", "hopper", 5_200, T0 - DAY);
  const e = [
    b.send("hopper", "bitso-deposit", 5_000, T0),
    b.send("bitso-hot", "hopper", 4_950, T0 + 10 * HOUR),
    b.send("hopper", "binance-deposit", 4_940, T0 + 10 * HOUR + restHours * HOUR),
  ];
  return { graph: b.build(["hopper"]), evidence: e };
};

const ROWS: Row[] = [
  {
    pattern: "mixing",
    run: (g) => detectMixing(g, DEFAULT_MIXING_PARAMS),
    positive: mixingGraph,
    expected: {
      subject: "user",
      wallets: ["user", "mixer"],
      usd: 5_000,
      thresholds: { direction: "outgoing", hops: 1, fixedDenominations: "yes" },
      mentions: ["2 ETH", "USD 5,000", "Tornado.Cash: 1 ETH", "2 transfers"],
      confidence: 1,
    },
    nearMiss: nearMixingGraph,
    nearMissIs: "a payment to an address after that address deposited into a mixer",
  },
  {
    pattern: "peel_chain",
    run: (g) => detectPeelChain(g, DEFAULT_PEEL_CHAIN_PARAMS),
    positive: () => peelGraph(7_000),
    expected: {
      subject: "h0",
      wallets: ["h0", "h1", "h2", "h3", "p1", "p2", "p3"],
      actors: ["h0", "h1", "h2"],
      usd: 10_000,
      thresholds: { hops: 3, minHops: 3, minForwardFraction: 0.8, maxPeelFraction: 0.2, maxHopGapDays: 7 },
      mentions: ["3 hops", "USD 10,000", "89%", "10%", "USD 2,700"],
    },
    nearMiss: () => peelGraph(6_200).graph,
    nearMissIs: "the third hop forwards 78% (< 80%), leaving a 2-hop chain",
  },
  {
    pattern: "structuring",
    run: (g) => detectStructuring(g, DEFAULT_STRUCTURING_PARAMS),
    positive: () => structuringGraph(4.2),
    expected: {
      subject: "smurf",
      wallets: ["smurf", "payee1", "payee2", "payee3"],
      actors: ["smurf"],
      usd: 28_110,
      thresholds: { thresholdUsd: 10_000, direction: "sent", windowDays: 7, minTransfers: 3 },
      mentions: [
        "Sent 3 transfers of USD 9,120–9,850 within 4.2 days, each 85–100% of the USD 10,000 threshold",
        "USD 28,110 in total",
      ],
    },
    nearMiss: () => structuringGraph(7.1).graph,
    nearMissIs: "the third transfer comes 7.1 days after the first",
  },
  {
    pattern: "round_tripping",
    run: (g) => detectRoundTripping(g, DEFAULT_ROUND_TRIPPING_PARAMS),
    positive: () => roundTripGraph(9_000),
    expected: {
      subject: "origin",
      wallets: ["origin", "layer1", "layer2", "layer3"],
      actors: ["origin", "layer1", "layer2", "layer3"],
      usd: 10_000,
      thresholds: { hops: 4, minHops: 2, maxHops: 6, windowDays: 30, minReturnFraction: 0.7, returned: 0.9 },
      mentions: ["USD 10,000", "90%", "USD 9,000", "4 hops", "3 addresses", "10.0 days"],
    },
    nearMiss: () => roundTripGraph(6_900).graph,
    nearMissIs: "69% comes back",
  },
  {
    pattern: "mass_wallet_creation",
    run: (g) => detectMassWalletCreation(g, DEFAULT_MASS_WALLET_CREATION_PARAMS),
    positive: () => massGraph(20),
    expected: {
      subject: "funder",
      wallets: ["funder", ...Array.from({ length: 10 }, (_, i) => `child${i}`)],
      actors: ["funder", ...Array.from({ length: 10 }, (_, i) => `child${i}`)],
      usd: 1_090,
      thresholds: { wallets: 10, minWallets: 10, windowHours: 24, maxDeviationFromMedian: 0.25 },
      mentions: ["10 fresh addresses", "20.0 hours", "USD 100–118", "USD 1,090 in total"],
    },
    nearMiss: () => massGraph(24.5).graph,
    nearMissIs: "the tenth wallet is funded 24.5 hours after the first",
  },
  {
    pattern: "wash_trading",
    run: (g) => detectWashTrading(g, DEFAULT_WASH_TRADING_PARAMS),
    positive: () => washGraph(2.25),
    expected: {
      subject: "trader-a",
      wallets: ["trader-a", "trader-b"],
      actors: ["trader-a", "trader-b"],
      usd: 6_000,
      thresholds: { token: "USDV", minTransfersEachWay: 3, windowDays: 7, netFraction: 0.003 },
      mentions: ["3 and 3 transfers", "USD 980–1,020", "net flow 0%", "USD 6,000 gross"],
    },
    nearMiss: () => washGraph(7.5).graph,
    nearMissIs: "the third transfer back comes 7.5 days after the first",
  },
  {
    pattern: "exchange_hopping",
    run: (g) => detectExchangeHopping(g, DEFAULT_EXCHANGE_HOPPING_PARAMS),
    positive: () => hoppingGraph(20),
    expected: {
      subject: "hopper",
      wallets: ["hopper", "bitso-deposit", "bitso-hot", "binance-deposit"],
      usd: 4_940,
      thresholds: { exchanges: 2, minExchanges: 2, maxRestHours: 72 },
      mentions: ["USD 4,940", "2 exchanges (Bitso, Binance)", "1.3 days", "20.0 hours"],
    },
    nearMiss: () => hoppingGraph(73).graph,
    nearMissIs: "the deposit into the second exchange comes 73 hours after the withdrawal",
  },
];

const EMPTY: TxGraph = {
  chainId: 1,
  roots: [],
  nodes: new Map(),
  edges: [],
  maxDepth: 3,
  truncated: NO_TRUNCATION,
};

const walletsOf = (names: string[]) => [addr(names[0] as string), ...names.slice(1).map(addr).sort()];

describe.each(ROWS)("detector contract: $pattern", (row) => {
  it("finds nothing in an empty graph", () => {
    expect(row.run(EMPTY)).toEqual([]);
    expect(row.run({ ...EMPTY, roots: [addr("someone")] })).toEqual([]);
  });

  it("finds the positive fixture with its evidence", () => {
    const { graph, evidence } = row.positive();
    const findings = row.run(graph);
    expect(findings).toHaveLength(1);
    const f = findings[0] as Finding;
    const x = row.expected;
    expect(f.pattern).toBe(row.pattern);
    expect(f.subject).toBe(addr(x.subject));
    expect(f.wallets).toEqual(walletsOf(x.wallets));
    expect(f.actors).toEqual(walletsOf(x.actors ?? [x.subject]));
    expect(f.txs).toEqual(evidence.map((e) => e.txHash).sort());
    expect(f.usdAmount).toBeCloseTo(x.usd, 2);
    expect(f.thresholds).toMatchObject(x.thresholds);
    for (const figure of x.mentions) expect(f.message).toContain(figure);
    expect(f.message).toMatch(/\.$/);
    expect(f.confidence).toBeGreaterThan(0);
    expect(f.confidence).toBeLessThanOrEqual(1);
    if (x.confidence !== undefined) expect(f.confidence).toBe(x.confidence);
  });

  it(`does not find the near miss (${row.nearMissIs})`, () => {
    expect(row.run(row.nearMiss())).toEqual([]);
  });

  it("gives identical output whatever the order of nodes and edges", () => {
    const { graph } = row.positive();
    const reference = row.run(graph);
    for (const seed of [1, 2, 3, 42]) expect(row.run(shuffled(graph, seed))).toEqual(reference);
  });
});
