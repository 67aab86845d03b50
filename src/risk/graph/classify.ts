// What kind of address a graph node is, as the detectors and the exposure need it: its label category (from the
// label, else from the node type), whether it is a service (funds are pooled there, so paths are not traced
// through it), which exchange it belongs to, and a short name for messages.
import { exchangeKeyOfLabel, exchangeNameOfLabel } from "./exchange-name.ts";
import { type GraphNode, LABEL_CATEGORIES } from "./types.ts";

/** Label categories of docs/labels.md, riskiest first. */
export const CATEGORY_ORDER = LABEL_CATEGORIES;

const TYPE_CATEGORIES: ReadonlySet<string> = new Set([
  "sanctioned",
  "illicit",
  "mixer",
  "bridge",
  "exchange",
  "defi",
]);

/** Categories whose addresses pool customers' funds: a trace does not continue through them. */
export const SERVICE_CATEGORIES: ReadonlySet<string> = new Set([
  "exchange",
  "mixer",
  "bridge",
  "defi",
  "gambling",
]);

/** The node's label category: its `category` when labelled, else the one its `type` implies, else undefined. */
export function categoryOf(node: GraphNode): string | undefined {
  if (node.category) return node.category.toLowerCase();
  return TYPE_CATEGORIES.has(node.type) ? node.type : undefined;
}

/** Rank of a category in CATEGORY_ORDER (unknown categories after the known ones). */
export function categoryRank(category: string): number {
  const i = (CATEGORY_ORDER as readonly string[]).indexOf(category);
  return i < 0 ? CATEGORY_ORDER.length : i;
}

export function isService(node: GraphNode): boolean {
  const category = categoryOf(node);
  return (
    node.type === "exchange" ||
    node.type === "mixer" ||
    node.type === "bridge" ||
    node.type === "defi" ||
    (category !== undefined && SERVICE_CATEGORIES.has(category))
  );
}

export function isExchange(node: GraphNode): boolean {
  return node.type === "exchange" || categoryOf(node) === "exchange";
}

export function isMixer(node: GraphNode): boolean {
  return node.type === "mixer" || categoryOf(node) === "mixer";
}

/** Categories that mark an address as a source of tainted funds. */
export const TAINT_CATEGORIES: ReadonlySet<string> = new Set([
  "sanctioned",
  "illicit",
  "blocklisted",
  "sanctioned_historical",
]);

/**
 * Where a trace of funds stops: services (funds are pooled there) and tainted addresses (reaching one is the
 * finding; its own other counterparties are not the traced address's business).
 */
export function endsTrace(node: GraphNode): boolean {
  const category = categoryOf(node);
  return (
    isService(node) ||
    node.type === "sanctioned" ||
    node.type === "illicit" ||
    (category !== undefined && TAINT_CATEGORIES.has(category))
  );
}

/** Distributors that fund many new wallets for legitimate reasons (faucets, payroll), by label. */
export function isKnownDistributor(node: GraphNode): boolean {
  return node.label !== undefined && /faucet|payroll|airdrop|distributor|disperse/i.test(node.label);
}

/**
 * The exchange an address belongs to (graph/exchange-name.ts: "Binance 14" and "Binance: deposit address (inferred)"
 * are both "binance"), so that its deposit addresses and hot wallets count as one exchange; the address itself
 * when unlabelled.
 */
export function exchangeEntity(node: GraphNode): string {
  return node.label ? exchangeKeyOfLabel(node.label) || node.address : node.address;
}

/** Display name of an exchange entity: the exchange's name as its label writes it. */
export function exchangeName(node: GraphNode): string {
  return node.label ? exchangeNameOfLabel(node.label) || node.label : shortAddress(node.address);
}

export function shortAddress(address: string): string {
  // An address of another chain (chain-keys.ts) keeps its chain: "0x3c44…93bc on chain 1".
  const at = address.lastIndexOf("@");
  if (at > 0) return `${shortAddress(address.slice(0, at))} on chain ${address.slice(at + 1)}`;
  if (address.length <= 12) return address;
  // A bech32 address (bc1…, tb1…, bcrt1…) keeps its prefix and five characters after it: "bcrt1q" alone would be
  // every regtest address's beginning.
  const bech32 = /^(bc|tb|bcrt)1/i.exec(address);
  const head = bech32 ? bech32[0].length + 5 : 6;
  return `${address.slice(0, head)}…${address.slice(-4)}`;
}

/** The label when there is one, else the shortened address. */
export function displayName(node: GraphNode): string {
  return node.label ?? shortAddress(node.address);
}
