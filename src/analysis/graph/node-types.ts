// From what the store knows of an address (its labels, its address facts) to the graph node's type, and which
// types end a path instead of being expanded.
import { LABEL_CATEGORIES, NODE_TYPE_OF_CATEGORY, type NodeType } from "../../risk/index.ts";

/**
 * Normalised label categories, riskiest first (docs/labels.md: "the riskiest wins, in the order of this table").
 * When an address has several labels, the first category in this order is its node's category; ties go to the
 * higher confidence, then the chain-specific label over an every-chain (chain 0) one, then label text.
 */
export const CATEGORY_ORDER: readonly string[] = LABEL_CATEGORIES;

/**
 * Types that end a path: the services of SERVICE_TYPES (exchange, mixer, bridge, defi), and also `sanctioned` and
 * `illicit`. Reaching a sanctioned or illicit address is the exposure an analysis looks for; its own other
 * counterparties are not the analysed address's exposure, and such addresses are often hubs (a sanctioned
 * exchange, a hacker's consolidation wallet). Roots are expanded whatever their type.
 */
export const DEFAULT_TERMINAL_TYPES: ReadonlySet<NodeType> = new Set<NodeType>([
  "exchange",
  "mixer",
  "bridge",
  "defi",
  "sanctioned",
  "illicit",
]);

/** Categories whose nodes are kept first when a budget forces a choice (everything but the neutral ones). */
export function isRiskRelevant(category: string | undefined): boolean {
  return category !== undefined && NODE_TYPE_OF_CATEGORY[category] !== undefined;
}

export interface AddressFacts {
  /** an address_facts row exists for the address on this chain */
  known: boolean;
  isContract: boolean;
  /** unix seconds */
  firstSeenAt: number | undefined;
  label: string | undefined;
  category: string | undefined;
  /** the label is inferred (an exchange deposit address, src/attribution), not stored */
  inferred: boolean;
}

/** Labels first; then `contract` from address_facts; `eoa` for an address the store has seen; else `unknown`. */
export function nodeTypeOf(facts: AddressFacts): NodeType {
  const labelled = facts.category === undefined ? undefined : NODE_TYPE_OF_CATEGORY[facts.category];
  if (labelled) return labelled;
  if (facts.isContract) return "contract";
  return facts.known ? "eoa" : "unknown";
}
