// From what the store knows of an address (its labels, its address facts) to the graph node's type. Which types
// end a path (TERMINAL_TYPES) and the order of label categories (CATEGORY_ORDER) are the risk core's
// (src/risk/graph), the one definition both the expansion and the detectors follow.
import type { AddressFacts } from "../../ledger/index.ts";
import { NODE_TYPE_OF_CATEGORY, type NodeType } from "../../risk/index.ts";

/** Categories whose nodes are kept first when a budget forces a choice (everything but the neutral ones). */
export function isRiskRelevant(category: string | undefined): boolean {
  return category !== undefined && NODE_TYPE_OF_CATEGORY[category] !== undefined;
}

/** Labels first; then `contract` from address_facts; `eoa` for an address the store has seen; else `unknown`. */
export function nodeTypeOf(facts: AddressFacts): NodeType {
  const labelled = facts.category === undefined ? undefined : NODE_TYPE_OF_CATEGORY[facts.category];
  if (labelled) return labelled;
  if (facts.isContract) return "contract";
  return facts.known ? "eoa" : "unknown";
}
