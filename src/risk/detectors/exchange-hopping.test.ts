// exchange_hopping through the user's own wallets (docs/risk-model.md): a withdrawal from one exchange reaching a
// different exchange through 1 to 3 fresh, single-source wallets that forward nearly all quickly is found, with
// the wallets and transfers as evidence, at and around every limit; the near misses (a merchant's or a friend's
// deposit, a wallet that keeps a part, a second source, 4 wallets, a slow wallet, a wallet the graph did not
// expand) are left alone.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, HOUR, shuffled, T0 } from "../../../test/support/graph-builder.ts";
import type { Finding } from "../findings.ts";
import type { GraphEdge, TxGraph } from "../graph/types.ts";
import {
  DEFAULT_EXCHANGE_HOPPING_PARAMS,
  detectExchangeHopping,
  type ExchangeHoppingParams,
} from "./exchange-hopping.ts";

const MINUTE = 60;
const run = (graph: TxGraph, params: Partial<ExchangeHoppingParams> = {}) =>
  detectExchangeHopping(graph, { ...DEFAULT_EXCHANGE_HOPPING_PARAMS, ...params });

interface Hopping {
  /** own wallets between the user and the second exchange */
  own?: number;
  token?: "usd" | "eth";
  /** USD withdrawn from Bitso */
  withdrawn?: number;
  /** USD the user sends on (to the first own wallet, or into Binance) */
  sent?: number;
  /** fraction of what it received each own wallet forwards */
  forward?: number;
  /** hours from the withdrawal to the user's transfer on */
  userRest?: number;
  /** hours each own wallet holds the funds */
  hold?: number;
}

interface Built {
  b: GraphBuilder;
  withdrawal: GraphEdge;
  /** the user's transfer on and each own wallet's, the last one the deposit into Binance */
  legs: GraphEdge[];
  own: string[];
}

/**
 * The user (an ordinary life: salary, shopping) withdraws from Bitso and, through `own` fresh wallets, deposits into
 * Binance. Amounts are round so that the fractions are exact in token units and in USD.
 */
function hopping(h: Hopping = {}): Built {
  const { own = 2, token = "usd", withdrawn = 10_000, forward = 0.99, userRest = 2, hold = 3 } = h;
  const sent = h.sent ?? withdrawn;
  const b = new GraphBuilder(5);
  b.exchange("bitso-hot", "Bitso: hot wallet");
  b.exchange("binance-deposit", "Binance: deposit address");
  b.send("employer", "user", 3_000, T0 - 20 * DAY);
  b.send("user", "shop", 400, T0 - 10 * DAY);
  const withdrawal = b.send("bitso-hot", "user", withdrawn, T0, { token });
  const names = Array.from({ length: own }, (_, i) => `own-${i + 1}`);
  const legs: GraphEdge[] = [];
  let holder = "user";
  let amount = sent;
  let at = T0 + Math.round(userRest * HOUR);
  for (const next of [...names, "binance-deposit"]) {
    legs.push(b.send(holder, next, amount, at, { token }));
    holder = next;
    amount = Math.round(amount * forward);
    at += Math.round(hold * HOUR);
  }
  return { b, withdrawal, legs, own: names };
}

const graphOf = (built: Built) => built.b.build(["user"]);
const only = (findings: Finding[]) => {
  expect(findings).toHaveLength(1);
  return findings[0] as Finding;
};

describe("exchange_hopping through own wallets", () => {
  for (const own of [0, 1, 2, 3]) {
    for (const token of ["usd", "eth"] as const) {
      it(`finds the hop through ${own} own wallet(s) (${token}) with the wallets and transfers as evidence`, () => {
        const built = hopping({ own, token });
        const f = only(run(graphOf(built)));
        expect(f.subject).toBe(addr("user"));
        const ownAddresses = built.own.map(addr);
        expect(f.actors).toEqual([addr("user"), ...[...ownAddresses].sort()]);
        expect(f.wallets).toEqual([
          addr("user"),
          ...[addr("bitso-hot"), addr("binance-deposit"), ...ownAddresses].sort(),
        ]);
        expect(f.txs).toEqual([built.withdrawal, ...built.legs].map((e) => e.txHash).sort());
        expect(f.message).toContain("2 exchanges (Bitso, Binance)");
        expect(f.usdAmount).toBe((built.legs.at(-1) as GraphEdge).usd);
        if (own === 0) {
          expect(f.message).not.toContain("of its own");
          expect(f.thresholds).not.toHaveProperty("ownWallets");
        } else {
          expect(f.message).toContain(`through ${own} wallet${own === 1 ? "" : "s"} of its own`);
          expect(f.message).toContain("at least 90% within 24 hours");
          expect(f.thresholds).toMatchObject({
            ownWallets: own,
            ownWalletsAtMost: 3,
            ownForwardFraction: 0.9,
            ownMaxHoldHours: 24,
          });
        }
      });
    }
  }

  it("leaves 4 own wallets alone, and finds them when maxOwnWallets allows 4", () => {
    const graph = graphOf(hopping({ own: 4, hold: 2 }));
    expect(run(graph)).toEqual([]);
    expect(only(run(graph, { maxOwnWallets: 4 })).thresholds).toMatchObject({ ownWallets: 4 });
  });

  it("gives identical output whatever the order of nodes and edges", () => {
    const graph = graphOf(hopping({ own: 3, token: "eth" }));
    const reference = run(graph);
    expect(reference).toHaveLength(1);
    for (const seed of [1, 2, 3, 42]) expect(run(shuffled(graph, seed))).toEqual(reference);
  });

  describe("amounts", () => {
    for (const token of ["usd", "eth"] as const) {
      it(`an own wallet forwarding 90% is own, 89.9% keeps a part (${token})`, () => {
        expect(run(graphOf(hopping({ own: 1, token, forward: 0.9 })))).toHaveLength(1);
        expect(run(graphOf(hopping({ own: 1, token, forward: 0.899 })))).toEqual([]);
      });

      it(`every leg carries 80% to 125% of the withdrawal (${token})`, () => {
        for (const [sent, found] of [
          [8_000, 1],
          [7_990, 0],
          [12_500, 1],
          [12_510, 0],
        ] as const) {
          const graph = graphOf(hopping({ own: 2, token, sent, forward: 1 }));
          expect(run(graph), `sent ${sent}`).toHaveLength(found);
        }
      });
    }

    it("a wallet that keeps a material part is not own, though the deposit carries 85% of the withdrawal", () => {
      expect(run(graphOf(hopping({ own: 1, forward: 0.85 })))).toEqual([]);
    });

    it("a wallet that forwards one of two transfers it received keeps half: not own", () => {
      const built = hopping({ own: 1 });
      built.b.send("user", "own-1", 10_000, T0 + 3 * HOUR);
      expect(run(graphOf(built))).toEqual([]);
    });

    it("counts gas sent by the user with what the wallet received (USD): still own", () => {
      const built = hopping({ own: 1 });
      built.b.send("user", "own-1", 20, T0 + 2 * HOUR + MINUTE, { token: "eth" });
      expect(run(graphOf(built))).toHaveLength(1);
    });

    it("the path chosen is the one through the fewest own wallets", () => {
      const built = hopping({ own: 2 });
      built.b.send("user", "binance-deposit", 9_500, T0 + 30 * HOUR);
      const f = only(run(graphOf(built)));
      expect(f.actors).toEqual([addr("user")]);
      expect(f.message).not.toContain("of its own");
    });
  });

  describe("rest times", () => {
    it("an own wallet holding 24 hours is own, 24 hours and a minute is slow", () => {
      expect(run(graphOf(hopping({ own: 2, hold: 24 })))).toHaveLength(1);
      expect(run(graphOf(hopping({ own: 2, hold: 24 + 1 / 60 })))).toEqual([]);
    });

    it("the deposit comes at most 72 hours after the withdrawal, whatever the own wallets' holds", () => {
      expect(run(graphOf(hopping({ own: 2, userRest: 48, hold: 12 })))).toHaveLength(1);
      expect(run(graphOf(hopping({ own: 2, userRest: 48 + 1 / 60, hold: 12 })))).toEqual([]);
    });

    it("funds cannot leave an own wallet before they arrived", () => {
      const b = new GraphBuilder(5);
      b.exchange("bitso-hot", "Bitso: hot wallet");
      b.exchange("binance-deposit", "Binance: deposit address");
      b.send("bitso-hot", "user", 10_000, T0);
      b.send("own-1", "binance-deposit", 9_900, T0 + HOUR);
      b.send("user", "own-1", 10_000, T0 + 2 * HOUR);
      expect(run(b.build(["user"]))).toEqual([]);
    });
  });

  describe("near misses", () => {
    it("a payment to a merchant, who later deposits its takings into another exchange", () => {
      const b = new GraphBuilder(5);
      b.exchange("bitso-hot", "Bitso: hot wallet");
      b.exchange("binance-deposit", "Binance: deposit address");
      for (let i = 0; i < 6; i++) b.send(`customer-${i}`, "merchant", 300 + 40 * i, T0 - (10 - i) * DAY);
      b.send("merchant", "supplier", 1_200, T0 - 3 * DAY);
      b.send("bitso-hot", "user", 10_000, T0);
      b.send("user", "merchant", 9_500, T0 + 2 * HOUR);
      b.send("merchant", "binance-deposit", 9_400, T0 + 6 * HOUR);
      expect(run(b.build(["user"]))).toEqual([]);
    });

    it("a friend's wallet with its own counterparties and history", () => {
      const b = new GraphBuilder(5);
      b.exchange("bitso-hot", "Bitso: hot wallet");
      b.exchange("binance-deposit", "Binance: deposit address");
      b.send("friend-employer", "friend", 2_500, T0 - 40 * DAY);
      b.send("friend", "landlord", 900, T0 - 35 * DAY);
      b.send("bitso-hot", "user", 10_000, T0);
      b.send("user", "friend", 10_000, T0 + HOUR);
      b.send("friend", "binance-deposit", 9_900, T0 + 3 * HOUR);
      expect(run(b.build(["user"]))).toEqual([]);
    });

    it("a friend's wallet first seen elsewhere (firstSeenAt) before the funds arrived", () => {
      const built = hopping({ own: 1 });
      built.b.node("own-1", { firstSeenAt: T0 - 100 * DAY });
      expect(run(graphOf(built))).toEqual([]);
    });

    it("a wallet with a second source, before or after the hop; dust from a stranger is no source", () => {
      for (const [at, usd, found] of [
        [T0 + 4 * HOUR, 3_000, 0],
        [T0 + 30 * DAY, 3_000, 0],
        [T0 + 6 * HOUR, 0.5, 1],
      ] as const) {
        const built = hopping({ own: 2 });
        built.b.send("stranger", "own-2", usd, at);
        expect(run(graphOf(built)), `USD ${usd} at ${(at - T0) / HOUR} h`).toHaveLength(found);
      }
      const poisoned = hopping({ own: 2 });
      poisoned.b.send("poisoner", "own-1", 0, T0 + 3 * HOUR, { value: 0n, usd: null });
      expect(run(graphOf(poisoned))).toHaveLength(1);
    });

    it("a labelled or contract intermediate is not an own wallet", () => {
      const labelled = hopping({ own: 1 });
      labelled.b.node("own-1", { label: "Payments processor", category: "other" });
      expect(run(graphOf(labelled))).toEqual([]);
      const contract = hopping({ own: 1 });
      contract.b.node("own-1", { type: "contract", isContract: true });
      expect(run(graphOf(contract))).toEqual([]);
    });

    it("a wallet back into the same exchange is no hop", () => {
      const b = new GraphBuilder(5);
      b.exchange("bitso-hot", "Bitso: hot wallet");
      b.exchange("bitso-deposit", "Bitso: deposit address");
      b.send("bitso-hot", "user", 10_000, T0);
      b.send("user", "own-1", 10_000, T0 + HOUR);
      b.send("own-1", "bitso-deposit", 9_900, T0 + 2 * HOUR);
      expect(run(b.build(["user"]))).toEqual([]);
    });
  });

  describe("the graph's truncation", () => {
    it("an intermediate whose transfers were not read (not expanded) is not proven own: missed", () => {
      const built = hopping({ own: 2 });
      built.b.node("own-2", { expanded: false });
      expect(run(graphOf(built))).toEqual([]);
    });

    it("in a graph cut to a time window, freshness needs the store's first-seen time", () => {
      const built = hopping({ own: 1 });
      const cut = (graph: TxGraph): TxGraph => ({ ...graph, window: { from: T0 - 30 * DAY } });
      expect(run(cut(graphOf(built)))).toEqual([]);
      built.b.node("own-1", { firstSeenAt: T0 + 2 * HOUR });
      expect(run(cut(graphOf(built)))).toHaveLength(1);
    });
  });

  it("finds the one hop among a busy user's thousands of withdrawals and payments", () => {
    const built = hopping({ own: 3, token: "eth", withdrawn: 50_000 });
    const { b } = built;
    for (let i = 0; i < 3_000; i++) {
      const at = T0 - 40 * DAY + i * 10 * MINUTE;
      b.send("bitso-hot", "user", 1_000 + (i % 7) * 100, at);
      b.send("user", `payee-${i % 400}`, 900 + (i % 5) * 100, at + 5 * MINUTE);
    }
    for (let i = 0; i < 400; i++) b.send(`payee-${i}`, "binance-deposit", 950, T0 - 10 * DAY + i * MINUTE);
    expect(b.edges.length).toBeGreaterThan(6_000);
    const f = only(run(graphOf(built)));
    expect(f.thresholds).toMatchObject({ ownWallets: 3 });
    expect(f.txs).toEqual([built.withdrawal, ...built.legs].map((e) => e.txHash).sort());
  });
});
