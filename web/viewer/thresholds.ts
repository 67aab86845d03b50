// The rule a pattern's finding met, in words an officer can check against the evidence ("each hop forwards at
// least 80% of what it receives"), from the parameters the detector reports in `evidence.thresholds`. The
// parameters themselves stay one click away (a <details> in the pattern card): the words are for reading, the
// figures for a case file. No DOM here, so it is unit-tested in Node (test/viewer/thresholds.test.ts).
//
// The wording follows the detectors (src/risk/detectors, one header comment each) and the pattern definitions
// they implement; a parameter missing from a finding (an older server, a pattern this viewer does not know)
// leaves its sentence out rather than guessing a default, and an unknown pattern gets no words at all.

export type Thresholds = Record<string, number | string>;

const num = (t: Thresholds, key: string): number | undefined =>
  typeof t[key] === "number" && Number.isFinite(t[key]) ? (t[key] as number) : undefined;
const str = (t: Thresholds, key: string): string | undefined =>
  typeof t[key] === "string" && t[key] !== "" ? (t[key] as string) : undefined;

/** 0.8 -> "80%", 0.003 -> "0.3%". */
export const percent = (fraction: number) => `${Math.round(fraction * 1000) / 10}%`;
const usd = (value: number) => `USD ${Math.round(value).toLocaleString("en-US")}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** Words of which some may be missing (a parameter the finding did not report): the ones present, joined. */
const words = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(" ");
/** One sentence of clauses, the missing ones left out: "A, b, c." */
const sentence = (...clauses: (string | false | undefined)[]) => {
  const text = clauses.filter(Boolean).join(", ");
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : "";
};

type Wording = (t: Thresholds) => string[];

const WORDINGS: Record<string, Wording> = {
  peel_chain: (t) => {
    const minHops = num(t, "minHops");
    const forward = num(t, "minForwardFraction");
    const peel = num(t, "maxPeelFraction");
    const gap = num(t, "maxHopGapDays");
    const hops = num(t, "hops");
    return [
      sentence(
        words(
          minHops !== undefined && `a chain of at least ${plural(minHops, "hop")}`,
          forward !== undefined &&
            `in which each hop forwards at least ${percent(forward)} of what it receives to a fresh or once-used address`,
          peel !== undefined && `and peels off at most ${percent(peel)} to another address`,
        ),
        gap !== undefined && `each hop within ${plural(gap, "day")} of the one before`,
      ),
      hops !== undefined ? `This chain has ${plural(hops, "hop")}.` : "",
    ];
  },
  structuring: (t) => {
    const minTransfers = num(t, "minTransfers");
    const window = num(t, "windowDays");
    const lower = num(t, "lowerFraction");
    const upper = num(t, "upperFraction");
    const threshold = num(t, "thresholdUsd");
    const name = str(t, "thresholdName");
    const direction = str(t, "direction");
    const band =
      lower !== undefined &&
      upper !== undefined &&
      (upper >= 1
        ? `each from ${percent(lower)} of the threshold up to just under it`
        : `each between ${percent(lower)} and ${percent(upper)} of the threshold`);
    return [
      sentence(
        words(
          minTransfers !== undefined && `at least ${plural(minTransfers, "transfer")}`,
          direction && `${direction} by one address`,
          window !== undefined && `within ${plural(window, "day")}`,
        ),
        band,
        "together more than the threshold",
      ),
      threshold !== undefined
        ? `The threshold: ${usd(threshold)}${name ? ` (${name})` : ""}, a reporting threshold; splitting a payment keeps each part under it.`
        : "",
    ];
  },
  round_tripping: (t) => {
    const minHops = num(t, "minHops");
    const maxHops = num(t, "maxHops");
    const window = num(t, "windowDays");
    const minReturn = num(t, "minReturnFraction");
    const hops = num(t, "hops");
    const returned = num(t, "returned");
    return [
      sentence(
        words(
          "funds that leave the address come back to it",
          minHops !== undefined && maxHops !== undefined && `within ${minHops} to ${maxHops} hops`,
          window !== undefined && `and ${plural(window, "day")}`,
        ),
        minReturn !== undefined && `carrying at least ${percent(minReturn)} of what left`,
      ),
      returned !== undefined && hops !== undefined
        ? `Here ${percent(returned)} came back after ${plural(hops, "hop")}.`
        : "",
    ];
  },
  mass_wallet_creation: (t) => {
    const minWallets = num(t, "minWallets");
    const window = num(t, "windowHours");
    const deviation = num(t, "maxDeviationFromMedian");
    const wallets = num(t, "wallets");
    return [
      sentence(
        words(
          minWallets !== undefined &&
            `one address is the first funder of at least ${minWallets} fresh addresses`,
          window !== undefined && `within ${plural(window, "hour")}`,
        ),
        deviation !== undefined && `each amount within ${percent(deviation)} of their median`,
      ),
      wallets !== undefined ? `Here ${plural(wallets, "fresh address", "fresh addresses")} were funded.` : "",
    ];
  },
  wash_trading: (t) => {
    const token = str(t, "token");
    const each = num(t, "minTransfersEachWay");
    const window = num(t, "windowDays");
    const deviation = num(t, "maxAmountDeviation");
    const maxNet = num(t, "maxNetFraction");
    const net = num(t, "netFraction");
    return [
      sentence(
        words(
          `two addresses send ${token ?? "the same token"} back and forth`,
          each !== undefined && `at least ${each} times each way`,
          window !== undefined && `within ${plural(window, "day")}`,
        ),
        deviation !== undefined && `the amounts within ${percent(deviation)} of each other`,
        maxNet !== undefined && `the net flow under ${percent(maxNet)} of the gross`,
      ),
      net !== undefined ? `Here the net flow is ${percent(net)} of the gross.` : "",
    ];
  },
  exchange_hopping: (t) => {
    const minExchanges = num(t, "minExchanges");
    const rest = num(t, "maxRestHours");
    const lo = num(t, "minCarriedFraction");
    const hi = num(t, "maxCarriedFraction");
    const exchanges = num(t, "exchanges");
    // Present only when the funds went through the user's own wallets on the way (docs/risk-model.md).
    const own = num(t, "ownWallets");
    const ownAtMost = num(t, "ownWalletsAtMost");
    const forward = num(t, "ownForwardFraction");
    const hold = num(t, "ownMaxHoldHours");
    return [
      sentence(
        minExchanges !== undefined && `funds pass through at least ${minExchanges} different exchanges`,
        words(
          rest !== undefined &&
            `each deposit into the next exchange made within ${plural(rest, "hour")} of the withdrawal from the previous one`,
          lo !== undefined && hi !== undefined && `and carrying ${percent(lo)} to ${percent(hi)} of it`,
        ),
      ),
      exchanges !== undefined ? `Here ${plural(exchanges, "exchange")}.` : "",
      own !== undefined
        ? sentence(
            `on the way the funds passed through ${plural(own, "wallet")} of the user's own`,
            "each fresh and fed by the previous wallet only",
            forward !== undefined && `forwarding at least ${percent(forward)} of what it received`,
            hold !== undefined && `within ${plural(hold, "hour")}`,
          ) + (ownAtMost !== undefined ? ` Up to ${plural(ownAtMost, "own wallet")} are followed.` : "")
        : "",
    ];
  },
  mixing: (t) => {
    const direction = str(t, "direction");
    const hops = num(t, "hops");
    const traced = num(t, "tracedFraction");
    const minTraced = num(t, "minTracedFraction");
    const decay = num(t, "hopDecay");
    const maxHops = num(t, "maxHops");
    const moves =
      direction === "incoming" ? "come from" : direction === "outgoing" ? "reach" : "reach or come from";
    return [
      sentence(
        words(
          `the address's own funds ${moves} an address labelled mixer`,
          hops !== undefined && (hops <= 1 ? "directly" : `${hops} hops away`),
        ),
        maxHops !== undefined && `funds traced along up to ${plural(maxHops, "hop")}`,
      ),
      minTraced !== undefined
        ? sentence(
            words(
              `beyond one hop, at least ${percent(minTraced)} of its funds on the paths must be traced to or from the mixer`,
              traced !== undefined && `(here ${percent(traced)})`,
            ),
          )
        : "",
      str(t, "fixedDenominations") === "yes" ? "The deposits are a mixing pool's fixed denominations." : "",
      decay !== undefined
        ? sentence(`confidence is multiplied by ${decay} for every hop beyond the first`)
        : "",
    ];
  },
};

/** The rule in words, one sentence per part; empty for a pattern this viewer has no words for. */
export function thresholdsInWords(patternType: string, thresholds: Thresholds | undefined): string[] {
  const wording = WORDINGS[patternType];
  if (!wording || !thresholds) return [];
  return wording(thresholds).filter((s) => s !== "");
}
