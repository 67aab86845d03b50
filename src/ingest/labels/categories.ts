// The small set of label categories the risk engine reads, and how the categories of the sources (GraphSense
// concepts, Etherscan-style slugs, the normalized CSVs) map onto it. The original is kept beside the normalised
// category (labels.original_category). The table is documented in docs/labels.md.

import { LABEL_CATEGORIES, type LabelCategory } from "../../risk/index.ts";

export { LABEL_CATEGORIES, type LabelCategory };

const GROUPS: Record<Exclude<LabelCategory, "other">, string[]> = {
  sanctioned: [
    "sanctioned",
    "sanction",
    "sanctions",
    "ofac",
    "ofac_sdn",
    "ofac_sanctions_lists",
    "ofac_sanctioned",
  ],
  illicit: [
    "illicit",
    "abuse",
    "scam",
    "scammer",
    "fraud",
    "financial_crime",
    "investment_fraud",
    "ponzi",
    "ponzi_scheme",
    "pyramid_scheme",
    "money_laundering",
    "extortion",
    "sextortion",
    "phishing",
    "phish",
    "phish_hack",
    "hack",
    "hacker",
    "hacking",
    "heist",
    "service_hack",
    "account_hack",
    "exploit",
    "exploiter",
    "data_breach",
    "social_engineering",
    "malware",
    "ransomware",
    "drugs",
    "weapons",
    "payment_card_fraud",
    "counterfeit",
    "extremism",
    "terrorism",
    "terrorism_financing",
    "sexual_abuse",
    "child_sexual_abuse",
    "violence",
    "human_trafficking",
    "murder",
    "torture",
    "perpetrator",
    "dark_web",
    "darknet",
    "darknet_market",
  ],
  mixer: ["mixer", "mixer_pool", "mixer_router", "mixing", "mixing_service", "coinjoin", "tornado_cash"],
  sanctioned_historical: ["sanctioned_historical"],
  blocklisted: ["blocklisted", "black_list", "blacklist", "blacklisted", "blacklisted_by_issuer", "frozen"],
  bridge: ["bridge", "defi_bridge", "cross_chain_bridge"],
  exchange: ["exchange", "cex"],
  defi: [
    "defi",
    "dex",
    "defi_token",
    "defi_lending",
    "defi_dex",
    "defi_dex_pair",
    "defi_derivatives",
    "defi_dao",
    "defi_staking",
    "defi_custody",
  ],
  gambling: ["gambling", "casino", "betting"],
  miner: ["miner", "mining", "mining_service", "mining_pool"],
};

const BY_NAME = new Map<string, LabelCategory>(
  Object.entries(GROUPS).flatMap(([category, names]) =>
    names.map((name) => [name, category as LabelCategory] as const),
  ),
);

/** When one source row names several categories, the riskiest one wins (the order of LABEL_CATEGORIES). */
const RANK = new Map<LabelCategory, number>(LABEL_CATEGORIES.map((category, index) => [category, index]));

const key = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s.-]+/g, "_");

/** The normalised category of one source category name ("phish-hack" → illicit, "mixing_service" → mixer). */
export function categoryOf(name: string): LabelCategory {
  return BY_NAME.get(key(name)) ?? "other";
}

/**
 * The normalised category of a label whose source gives one or more category names (a TagPack tag's category,
 * abuse and concepts; a CSV cell, possibly ';'- or '|'-joined), with the original text kept.
 */
export function normalizeCategories(names: readonly string[]): {
  category: LabelCategory;
  original: string | null;
} {
  const parts = [...new Set(names.flatMap((name) => name.split(/[;|]/)).map((part) => part.trim()))].filter(
    Boolean,
  );
  let best: LabelCategory = "other";
  for (const part of parts) {
    const category = categoryOf(part);
    if (RANK.get(category)! < RANK.get(best)!) best = category;
  }
  return { category: best, original: parts.length > 0 ? parts.join(";") : null };
}
