// Labels from token issuers' freezes: the indexer reads USDT's AddedBlackList / RemovedBlackList events
// (src/chains/indexer/issuer-freezes.ts) and hands them here, in the transaction that stores their batch, because
// only src/ingest writes the `labels` table. A freeze labels the address `blocklisted` (the source category
// `blacklisted_by_issuer`, categories.ts; the risk engine weighs it in src/risk/scoring/params.ts) and is logged in
// `label_changes`, so the re-screening re-scores the monitored addresses it reaches, as an import's label is; a
// release deletes the label. The label's text names the block of the freeze, so that a reorg unwinding that block
// takes the label back (a release unwound cannot restore the label it deleted: on Tron the indexer stays 19 blocks,
// a solidified block, behind the head, where no reorg reaches).
import { type Kysely, sql } from "kysely";
import type { IssuerFreezeEvent, IssuerFreezeSink } from "../../chains/indexer/index.ts";
import type { DB } from "../../schema.ts";
import { normalizeCategories } from "./categories.ts";
import { CONFIDENCE_LEVELS } from "./confidence.ts";

/** The source category a freeze is labelled with, kept as the label's original category. */
export const ISSUER_FREEZE_CATEGORY = "blacklisted_by_issuer";
/** Labels of freezes have the source `issuer-freeze:<token contract>`: one label per address and token. */
export const ISSUER_FREEZE_SOURCE_PREFIX = "issuer-freeze:";

const { category: NORMALISED } = normalizeCategories([ISSUER_FREEZE_CATEGORY]);
/** Read from the chain itself: GraphSense's `ledger_immanent` level. */
const CONFIDENCE = CONFIDENCE_LEVELS.ledger_immanent ?? 100;

export const issuerFreezeSource = (token: string) => `${ISSUER_FREEZE_SOURCE_PREFIX}${token}`;

/** The label's text; `block N` in it is what an unwind reads back (unwindIssuerFreezes). */
export function issuerFreezeLabel(event: IssuerFreezeEvent): string {
  return `frozen by the issuer of token ${event.token} (AddedBlackList in block ${event.blockNumber}, tx ${event.txHash})`;
}

/**
 * Applies freezes and releases in their order (a freeze then a release in one batch leaves no label). `db` is the
 * indexer's transaction: the labels commit with the batch and its checkpoint.
 */
export async function recordIssuerFreezes(
  db: Kysely<DB>,
  events: readonly IssuerFreezeEvent[],
): Promise<void> {
  for (const event of events) {
    const source = issuerFreezeSource(event.token);
    if (event.action === "removed") {
      await db
        .deleteFrom("labels")
        .where("chain_id", "=", event.chainId)
        .where("address", "=", event.address)
        .where("category", "=", NORMALISED)
        .where("source", "=", source)
        .execute();
      continue;
    }
    const label = issuerFreezeLabel(event);
    // A second freeze of a frozen address (an issuer repeating itself) keeps the first one's label: no news.
    const written = await db
      .insertInto("labels")
      .values({
        address: event.address,
        chain_id: event.chainId,
        label,
        category: NORMALISED,
        original_category: ISSUER_FREEZE_CATEGORY,
        source,
        confidence: CONFIDENCE,
      })
      .onConflict((oc) => oc.columns(["address", "chain_id", "category", "source"]).doNothing())
      .executeTakeFirst();
    if ((written.numInsertedOrUpdatedRows ?? 0n) === 0n) continue;
    await db
      .insertInto("label_changes")
      .values({ chain_id: event.chainId, address: event.address, label, category: NORMALISED, source })
      .execute();
  }
}

/** Takes back the freezes recorded from blocks above `aboveBlock` (a reorg unwound them). */
export async function unwindIssuerFreezes(
  db: Kysely<DB>,
  chainId: number,
  aboveBlock: bigint,
): Promise<void> {
  await sql`
    DELETE FROM labels
    WHERE chain_id = ${chainId} AND category = ${NORMALISED}
      AND source LIKE ${`${ISSUER_FREEZE_SOURCE_PREFIX}%`}
      AND substring(label FROM 'in block ([0-9]+)')::numeric > ${aboveBlock.toString()}::numeric`.execute(db);
}

/** The sink the service passes to the indexer (FollowerHooks.issuerFreezes). */
export const issuerFreezeLabels: IssuerFreezeSink = {
  recorded: (trx, _chainId, events) => recordIssuerFreezes(trx, events),
  unwound: (trx, chainId, aboveBlock) => unwindIssuerFreezes(trx, chainId, aboveBlock),
};
