// The explorer cache's writes: pages of history go through the shared idempotent writers (store/transfers.ts),
// and `explorer_fetches` (migrations 0002 and 0006) records what a finished fetch covers (read back through the
// ledger, src/ledger/explorer-fetches.ts).
// Raw SQL for explorer_fetches because its 0006 columns are not in the shared Kysely types.
import { type Kysely, sql } from "kysely";
import { attributeTransfers } from "../../attribution/index.ts";
import { clusterTransactions } from "../../clusters/index.ts";
import type { FetchRecord } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";
import { labelCoinJoinNodes } from "../store/coinjoin-labels.ts";
import { insertTransfers, markContracts, upsertTokens } from "../store/transfers.ts";
import type { HistoryPage } from "./types.ts";

export async function writeFetch(db: Kysely<DB>, r: FetchRecord): Promise<void> {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  await sql`
    INSERT INTO explorer_fetches (chain_id, address, fetched_at, transfer_count, covered_from, covered_to, truncated, source)
    VALUES (${r.chainId}, ${r.address}, ${r.fetchedAt.toISOString()}, ${r.transferCount},
      ${iso(r.coveredFrom)}::timestamptz, ${iso(r.coveredTo)}::timestamptz, ${r.truncated}, ${r.source})
    ON CONFLICT (chain_id, address) DO UPDATE SET
      fetched_at = excluded.fetched_at, transfer_count = excluded.transfer_count,
      covered_from = excluded.covered_from, covered_to = excluded.covered_to,
      truncated = excluded.truncated, source = excluded.source`.execute(db);
}

/**
 * Stores one page (its transfers, token metadata and contract marks; a Bitcoin page's CoinJoin labels and address
 * clusters) in one transaction.
 */
export async function storePage(
  db: Kysely<DB>,
  chainId: number,
  page: Pick<HistoryPage, "tokens" | "contracts" | "mixers" | "utxo">,
  transfers: NonNullable<HistoryPage["items"][number]["transfer"]>[],
): Promise<void> {
  const mixers = page.mixers ?? [];
  const utxo = page.utxo ?? [];
  if (
    transfers.length === 0 &&
    page.tokens.length === 0 &&
    page.contracts.length === 0 &&
    mixers.length === 0 &&
    utxo.length === 0
  )
    return;
  await db.transaction().execute(async (trx) => {
    await upsertTokens(
      trx,
      page.tokens.map((t) => ({ chainId, ...t })),
    );
    await insertTransfers(
      trx,
      transfers.map((t) => ({ chainId, ...t })),
    );
    await attributeTransfers(trx, chainId, transfers);
    await markContracts(trx, chainId, page.contracts);
    // The mixer labels before the clusters: the clusters read labels (an exchange's inputs merge nothing).
    await labelCoinJoinNodes(trx, chainId, mixers);
    await clusterTransactions(trx, chainId, utxo);
  });
}
