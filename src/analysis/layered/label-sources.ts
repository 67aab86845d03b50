// Where the labels of a layer's nodes come from (the `source` of the labels row: the label set it was imported
// from), so that an officer can weigh a label: an OFAC SDN listing is not a community tag. The graph expansion
// (src/analysis/graph) picks each node's strongest label but not its source; this reads the sources of those
// labels once per layer, one statement for every labelled node.
//
// It reads the labels table, whose SQL is moving to the ledger room (docs/decisions/0024-ledger-and-coverage.md):
// this statement belongs there too once that room has a door for it.
import { type Kysely, sql } from "kysely";
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
  // The same label text may come from several sets: the one the expansion would rank first (confidence, a
  // chain-specific label before an every-chain one, then the source's name, for a stable answer).
  const { rows } = await sql<{ address: string; label: string; source: string }>`
    SELECT DISTINCT ON (l.address, l.label) l.address, l.label, l.source
    FROM labels l
    WHERE l.address = ANY(${[...labelOf.keys()]}::text[]) AND l.chain_id IN (0, ${chainId})
    ORDER BY l.address, l.label, l.confidence DESC, (l.chain_id <> 0) DESC, l.source`.execute(db);
  const sources = new Map<string, string>();
  for (const row of rows) {
    if (labelOf.get(row.address) === row.label && row.source) sources.set(row.address, row.source);
  }
  return sources;
}
