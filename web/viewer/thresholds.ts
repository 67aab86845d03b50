// The rule a pattern's finding met, in words an officer can check against the evidence ("each hop forwards at
// least 80% of what it receives"), from the parameters the detector reports in `evidence.thresholds`. The
// parameters themselves stay one click away (a <details> in the pattern card): the words are for reading, the
// figures for a case file. No DOM here, so it is unit-tested in Node (test/viewer/thresholds.test.ts).
//
// The wording follows the detectors (src/risk/detectors, one header comment each) and the pattern definitions
// they implement; a parameter missing from a finding (an older server, a pattern this viewer does not know)
// leaves its sentence out rather than guessing a default, and an unknown pattern gets no words at all.

import { THRESHOLD_NAME_IDS } from "../../src/messages/thresholds.ts";
import { formatNumber, t } from "./i18n.ts";

export type Thresholds = Record<string, number | string>;

const num = (t: Thresholds, key: string): number | undefined =>
  typeof t[key] === "number" && Number.isFinite(t[key]) ? (t[key] as number) : undefined;
const str = (t: Thresholds, key: string): string | undefined =>
  typeof t[key] === "string" && t[key] !== "" ? (t[key] as string) : undefined;

/** 0.8 -> "80%", 0.003 -> "0.3%". */
export const percent = (fraction: number) => `${formatNumber(Math.round(fraction * 1000) / 10)}%`;
const usd = (value: number) => `USD ${formatNumber(Math.round(value))}`;
/** Words of which some may be missing (a parameter the finding did not report): the ones present, joined. */
const words = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(" ");
/** One sentence of clauses, the missing ones left out: "A, b, c." */
const sentence = (...clauses: (string | false | undefined)[]) => {
  const text = clauses.filter(Boolean).join(", ");
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : "";
};
/** A threshold's name in the reader's language, where the catalog has it. */
const thresholdName = (name: string) => {
  const id = THRESHOLD_NAME_IDS[name];
  return id ? t(id) : name;
};

type Wording = (t: Thresholds) => string[];

const WORDINGS: Record<string, Wording> = {
  peel_chain: (p) => {
    const minHops = num(p, "minHops");
    const forward = num(p, "minForwardFraction");
    const peel = num(p, "maxPeelFraction");
    const gap = num(p, "maxHopGapDays");
    const hops = num(p, "hops");
    return [
      sentence(
        words(
          minHops !== undefined && t("viewer.rule.peel.min_hops", { n: minHops }),
          forward !== undefined && t("viewer.rule.peel.forward", { pct: percent(forward) }),
          peel !== undefined && t("viewer.rule.peel.peel", { pct: percent(peel) }),
        ),
        gap !== undefined && t("viewer.rule.peel.gap", { n: gap }),
      ),
      hops !== undefined ? t("viewer.rule.peel.here", { n: hops }) : "",
    ];
  },
  structuring: (p) => {
    const minTransfers = num(p, "minTransfers");
    const window = num(p, "windowDays");
    const lower = num(p, "lowerFraction");
    const upper = num(p, "upperFraction");
    const threshold = num(p, "thresholdUsd");
    const name = str(p, "thresholdName");
    const direction = str(p, "direction");
    const band =
      lower !== undefined &&
      upper !== undefined &&
      (upper >= 1
        ? t("viewer.rule.str.band_upper", { lower: percent(lower) })
        : t("viewer.rule.str.band", { lower: percent(lower), upper: percent(upper) }));
    return [
      sentence(
        words(
          minTransfers !== undefined && t("viewer.rule.str.min_transfers", { n: minTransfers }),
          direction && t("viewer.rule.str.direction", { direction }),
          window !== undefined && t("viewer.rule.within_days", { n: window }),
        ),
        band,
        t("viewer.rule.str.together"),
      ),
      threshold !== undefined
        ? t("viewer.rule.str.threshold", {
            usd: usd(threshold),
            name: name ? ` (${thresholdName(name)})` : "",
          })
        : "",
    ];
  },
  round_tripping: (p) => {
    const minHops = num(p, "minHops");
    const maxHops = num(p, "maxHops");
    const window = num(p, "windowDays");
    const minReturn = num(p, "minReturnFraction");
    const hops = num(p, "hops");
    const returned = num(p, "returned");
    return [
      sentence(
        words(
          t("viewer.rule.rt.base"),
          minHops !== undefined &&
            maxHops !== undefined &&
            t("viewer.rule.rt.hops", { min: minHops, max: maxHops }),
          window !== undefined && t("viewer.rule.rt.days", { n: window }),
        ),
        minReturn !== undefined && t("viewer.rule.rt.min_return", { pct: percent(minReturn) }),
      ),
      returned !== undefined && hops !== undefined
        ? t("viewer.rule.rt.here", { pct: percent(returned), n: hops })
        : "",
    ];
  },
  mass_wallet_creation: (p) => {
    const minWallets = num(p, "minWallets");
    const window = num(p, "windowHours");
    const deviation = num(p, "maxDeviationFromMedian");
    const wallets = num(p, "wallets");
    return [
      sentence(
        words(
          minWallets !== undefined && t("viewer.rule.mwc.base", { n: minWallets }),
          window !== undefined && t("viewer.rule.within_hours", { n: window }),
        ),
        deviation !== undefined && t("viewer.rule.mwc.deviation", { pct: percent(deviation) }),
      ),
      wallets !== undefined ? t("viewer.rule.mwc.here", { n: wallets }) : "",
    ];
  },
  wash_trading: (p) => {
    const token = str(p, "token");
    const each = num(p, "minTransfersEachWay");
    const window = num(p, "windowDays");
    const deviation = num(p, "maxAmountDeviation");
    const maxNet = num(p, "maxNetFraction");
    const net = num(p, "netFraction");
    return [
      sentence(
        words(
          token ? t("viewer.rule.wash.base_token", { token }) : t("viewer.rule.wash.base_same"),
          each !== undefined && t("viewer.rule.wash.each", { n: each }),
          window !== undefined && t("viewer.rule.within_days", { n: window }),
        ),
        deviation !== undefined && t("viewer.rule.wash.deviation", { pct: percent(deviation) }),
        maxNet !== undefined && t("viewer.rule.wash.max_net", { pct: percent(maxNet) }),
      ),
      net !== undefined ? t("viewer.rule.wash.here", { pct: percent(net) }) : "",
    ];
  },
  exchange_hopping: (p) => {
    const minExchanges = num(p, "minExchanges");
    const rest = num(p, "maxRestHours");
    const lo = num(p, "minCarriedFraction");
    const hi = num(p, "maxCarriedFraction");
    const exchanges = num(p, "exchanges");
    // Present only when the funds went through the user's own wallets on the way (docs/risk-model.md).
    const own = num(p, "ownWallets");
    const ownAtMost = num(p, "ownWalletsAtMost");
    const forward = num(p, "ownForwardFraction");
    const hold = num(p, "ownMaxHoldHours");
    return [
      sentence(
        minExchanges !== undefined && t("viewer.rule.hop.base", { n: minExchanges }),
        words(
          rest !== undefined && t("viewer.rule.hop.rest", { n: rest }),
          lo !== undefined &&
            hi !== undefined &&
            t("viewer.rule.hop.carried", { lo: percent(lo), hi: percent(hi) }),
        ),
      ),
      exchanges !== undefined ? t("viewer.rule.hop.here", { n: exchanges }) : "",
      own !== undefined
        ? sentence(
            t("viewer.rule.hop.own", { n: own }),
            t("viewer.rule.hop.own_fresh"),
            forward !== undefined && t("viewer.rule.hop.own_forward", { pct: percent(forward) }),
            hold !== undefined && t("viewer.rule.within_hours", { n: hold }),
          ) + (ownAtMost !== undefined ? t("viewer.rule.hop.own_at_most", { n: ownAtMost }) : "")
        : "",
    ];
  },
  mixing: (p) => {
    const direction = str(p, "direction") ?? "both";
    const hops = num(p, "hops");
    const traced = num(p, "tracedFraction");
    const minTraced = num(p, "minTracedFraction");
    const decay = num(p, "hopDecay");
    const maxHops = num(p, "maxHops");
    return [
      sentence(
        words(
          t("viewer.rule.mix.base", { direction }),
          hops !== undefined && (hops <= 1 ? t("viewer.directly") : t("viewer.hops_away", { hops })),
        ),
        maxHops !== undefined && t("viewer.rule.mix.traced", { n: maxHops }),
      ),
      minTraced !== undefined
        ? sentence(
            words(
              t("viewer.rule.mix.min_traced", { pct: percent(minTraced) }),
              traced !== undefined && t("viewer.rule.mix.here", { pct: percent(traced) }),
            ),
          )
        : "",
      str(p, "fixedDenominations") === "yes" ? t("viewer.rule.mix.fixed") : "",
      decay !== undefined ? sentence(t("viewer.rule.mix.decay", { decay })) : "",
    ];
  },
};

/** The rule in words, one sentence per part; empty for a pattern this viewer has no words for. */
export function thresholdsInWords(patternType: string, thresholds: Thresholds | undefined): string[] {
  const wording = WORDINGS[patternType];
  if (!wording || !thresholds) return [];
  return wording(thresholds).filter((s) => s !== "");
}
