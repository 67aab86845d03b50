// The rule of each pattern in words (web/viewer/thresholds.ts), from the thresholds the real detectors report on
// the devnet world's positive cases (so a renamed or new detector parameter shows up here, not as a sentence
// quietly missing in the viewer): each pattern has words, every rule parameter (min…, max…, window…) is in them,
// and the figures read as the pattern definitions say them ("each hop forwards at least 80% of what it receives").
import { describe, expect, it } from "vitest";
import { analyseGraph, PATTERNS, toLayerPatterns } from "../../src/risk/index.ts";
import { devnetWorld, indexWorld, worldGraph } from "../../src/worlds/index.ts";
import { percent, thresholdsInWords } from "../../web/viewer/thresholds.ts";

const world = devnetWorld();
const index = indexWorld(world);
const found = new Map<string, Record<string, number | string>>();
for (const c of world.cases.filter(
  (c) => c.positive && (PATTERNS as readonly string[]).includes(c.pattern),
)) {
  const risk = analyseGraph(worldGraph(index, c.subject, { depth: 3 }), c.subject);
  const pattern = toLayerPatterns(risk.findings).find((p) => p.patternType === c.pattern);
  if (pattern && !found.has(c.pattern)) found.set(c.pattern, pattern.evidence.thresholds);
}

const PHRASES: Record<string, RegExp[]> = {
  peel_chain: [
    /^A chain of at least 3 hops in which each hop forwards at least 80% of what it receives to a fresh or once-used address and peels off at most 20% to another address, each hop within 7 days of the one before\./,
    /This chain has \d+ hops\./,
  ],
  structuring: [
    /^At least 3 transfers (sent|received) by one address within 7 days, each from 85% of the threshold up to just under it, together more than the threshold\./,
    /The threshold: USD [\d,]+ \(/,
  ],
  round_tripping: [
    /^Funds that leave the address come back to it within 2 to 6 hops and 30 days, carrying at least 70% of what left\./,
  ],
  mass_wallet_creation: [
    /^One address is the first funder of at least 10 fresh addresses within 24 hours, each amount within 25% of their median\./,
  ],
  wash_trading: [
    /^Two addresses send \w+ back and forth at least 3 times each way within 7 days, the amounts within 10% of each other, the net flow under 10% of the gross\./,
  ],
  exchange_hopping: [
    /^Funds pass through at least 2 different exchanges, each deposit into the next exchange made within 72 hours of the withdrawal from the previous one and carrying 80% to 125% of it\./,
  ],
  mixing: [/^The address's own funds (reach|come from) an address labelled mixer/],
};

describe("thresholdsInWords", () => {
  it("finds a finding of every pattern in the devnet world", () => {
    expect([...found.keys()].sort()).toEqual([...PATTERNS].sort());
  });

  for (const pattern of PATTERNS) {
    it(`words ${pattern}'s rule with every rule parameter in it`, () => {
      const thresholds = found.get(pattern)!;
      const text = thresholdsInWords(pattern, thresholds).join(" ");
      for (const phrase of PHRASES[pattern]!) expect(text).toMatch(phrase);
      for (const [key, value] of Object.entries(thresholds)) {
        if (!/^(min|max|window)/.test(key) || typeof value !== "number") continue;
        const said = [`${value} `, percent(value)].some((figure) => text.includes(figure));
        expect(said, `${pattern}.${key} = ${value} in "${text}"`).toBe(true);
      }
    });
  }

  it("says nothing it does not know: an unknown pattern, no thresholds, a missing parameter", () => {
    expect(thresholdsInWords("tumbling", { minHops: 3 })).toEqual([]);
    expect(thresholdsInWords("peel_chain", undefined)).toEqual([]);
    expect(thresholdsInWords("peel_chain", { minForwardFraction: 0.8 })).toEqual([
      "In which each hop forwards at least 80% of what it receives to a fresh or once-used address.",
    ]);
    expect(thresholdsInWords("peel_chain", {})).toEqual([]);
  });
});

describe("exchange hopping through the user's own wallets", () => {
  it("says how many own wallets the funds passed through and what makes a wallet one's own", () => {
    const text = thresholdsInWords("exchange_hopping", {
      exchanges: 2,
      minExchanges: 2,
      maxRestHours: 72,
      minCarriedFraction: 0.8,
      maxCarriedFraction: 1.25,
      ownWallets: 2,
      ownWalletsAtMost: 3,
      ownForwardFraction: 0.9,
      ownMaxHoldHours: 24,
    }).join(" ");
    expect(text).toContain(
      "On the way the funds passed through 2 wallets of the user's own, each fresh and fed by the previous wallet only, forwarding at least 90% of what it received, within 24 hours. Up to 3 own wallets are followed.",
    );
  });
});
