// A Bitcoin CoinJoin's node (`coinjoin:<txid>`, src/chains/bitcoin/project.ts) labelled a mixer, source
// `vigia:coinjoin`, by whichever source read the transaction (an import, an Esplora history): the label is what makes
// a participant's exposure read as mixing. Not logged for re-screening: no one monitors a node the service made.
import { type Kysely, sql } from "kysely";
import type { DB } from "../../schema.ts";

export async function labelCoinJoinNodes(
  db: Kysely<DB>,
  chainId: number,
  nodes: readonly { address: string; label: string }[],
): Promise<void> {
  if (nodes.length === 0) return;
  await sql`
    INSERT INTO labels (address, chain_id, label, category, original_category, source)
    SELECT a, ${chainId}, l, 'mixer', 'coinjoin', 'vigia:coinjoin' FROM unnest(${nodes.map((n) => n.address)}::text[],
      ${nodes.map((n) => n.label.slice(0, 500))}::text[]) AS t(a, l)
    ON CONFLICT (address, chain_id, category, source) DO NOTHING`.execute(db);
}
