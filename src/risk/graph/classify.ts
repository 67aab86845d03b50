// What kind of address a graph node is, as the detectors and the exposure need it: its label category (from the
// label, else from the node type), whether it is a service (funds are pooled there, so paths are not traced
// through it), which exchange it belongs to, and a short name for messages.
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
 * The exchange an address belongs to: the label's text before ":" (e.g. "Bitso: deposit address" -> "bitso"),
 * so that a deposit address and a hot wallet of one exchange count as one exchange; the address when unlabelled.
 */
export function exchangeEntity(node: GraphNode): string {
  if (!node.label) return node.address;
  const name = node.label.split(/:| - /)[0]?.trim().toLowerCase();
  return name || node.address;
}

/** Display name of an exchange entity: the label's prefix as written. */
export function exchangeName(node: GraphNode): string {
  if (!node.label) return shortAddress(node.address);
  return node.label.split(/:| - /)[0]?.trim() || node.label;
}

export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** The label when there is one, else the shortened address. */
export function displayName(node: GraphNode): string {
  return node.label ?? shortAddress(node.address);
}
