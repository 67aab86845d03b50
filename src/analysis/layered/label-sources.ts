// Where the labels of a layer's nodes come from (the `source` of the labels row: the label set it was imported
// from), so that an officer can weigh a label: an OFAC SDN listing is not a community tag. The graph expansion
// (src/analysis/graph) picks each node's strongest label but not its source; this reads the sources of those
// labels once per layer, one statement for every labelled node.
import type { Kysely } from "kysely";
import { labelSourcesOf } from "../../ledger/index.ts";
import type { GraphNode } from "../../risk/index.ts";
import type { DB } from "../../schema.ts";

/** The source of each labelled node's label, by address (inferred labels have none: the service made them). */
export async function readLabelSources(
  db: Kysely<DB>,
  chainId: number,
  nodes: readonly GraphNode[],
): Promise<Map<string, string>> {
  const labelled = nodes.filter((n) => n.label !== undefined && !n.inferred);
  if (labelled.length === 0) return new Map();
  const labelOf = new Map(labelled.map((n) => [n.address, n.label as string]));
  return labelSourcesOf(db, chainId, labelOf);
}
