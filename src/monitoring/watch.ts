// Watching registered addresses: the indexer hands every batch of confirmed transfers to this watcher inside the
// transaction that writes them and moves its checkpoint, so each transfer of a monitored address is recorded
// exactly once (primary key, ON CONFLICT DO NOTHING) however many workers run and however often they crash. An
// address is watched on its chain, or on every chain when it was registered without one (0023): its transfers on
// each chain are recorded under that chain. Only transfers in blocks after the registration count
// (migrations/0013_monitored_transfers.sql, 0023_every_chain_addresses.sql). A reorg that unwinds
// blocks takes back the transfers not yet checked; one already checked is marked `unwound` and its notification,
// possibly delivered, is kept: the integrator was told of a transfer that a deeper reorg than the confirmations
// allowed for removed, and the log says so.
import { sql } from "kysely";
import type { TransferWatcher } from "../chains/indexer/index.ts";
import type { TransferRow } from "../chains/store/index.ts";

interface Watched {
  id: string;
  project_id: number;
  address: string;
  /** the indexed head at registration on this chain (of an every-chain address: this chain's entry) */
  watch_from_block: string | null;
  created_at: Date;
}

/** Rows per insert statement (7 parameters each, well under the drivers' limits). */
const CHUNK = 1_000;

/**
 * The watcher, where an address registered without a chain is watched on the chains `everyChainOn` admits: the EVM
 * chains (one key controls an EVM address on all of them). A Tron chain stores its addresses in the same hex form,
 * but an EVM deposit address registered "on every chain" does not make its Tron twin the user's deposit address.
 */
export function watcherForChains(everyChainOn: (chainId: number) => boolean): TransferWatcher {
  return {
    written: (trx, chainId, transfers) => written(trx, chainId, transfers, everyChainOn(chainId)),
    unwound,
  };
}

/** Every chain is an EVM chain (the stores of tests and tools without a registry). */
export const monitoringWatcher: TransferWatcher = watcherForChains(() => true);

async function written(
  trx: Parameters<TransferWatcher["written"]>[0],
  chainId: number,
  transfers: readonly TransferRow[],
  everyChain: boolean,
): Promise<void> {
  if (transfers.length === 0) return;
  const ends = [...new Set(transfers.flatMap((t) => [t.from, t.to]))];
  const { rows: watched } = await sql<Watched>`
      SELECT id, project_id, address, watch_from_block::text AS watch_from_block, created_at FROM monitored_addresses
      WHERE chain_id = ${chainId} AND stopped_at IS NULL AND address = ANY(${ends}::text[])
      UNION ALL
      SELECT id, project_id, address, watch_from_blocks ->> ${String(chainId)} AS watch_from_block, created_at
      FROM monitored_addresses
      WHERE ${everyChain} AND chain_id IS NULL AND stopped_at IS NULL AND address = ANY(${ends}::text[])`.execute(
    trx,
  );
  if (watched.length === 0) return;
  const byAddress = new Map<string, Watched[]>();
  for (const w of watched) byAddress.set(w.address, [...(byAddress.get(w.address) ?? []), w]);
  const rows = transfers.flatMap((t) => {
    const touching = new Set([...(byAddress.get(t.from) ?? []), ...(byAddress.get(t.to) ?? [])]);
    return [...touching]
      .filter((w) => isNew(w, t))
      .map((w) => ({
        address_id: w.id,
        project_id: w.project_id,
        chain_id: chainId,
        tx_hash: t.txHash,
        log_index: t.logIndex,
        block_number: t.blockNumber.toString(),
      }));
  });
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto("monitored_transfers")
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["address_id", "chain_id", "tx_hash", "log_index"]).doNothing())
      .execute();
  }
}

async function unwound(
  trx: Parameters<TransferWatcher["unwound"]>[0],
  chainId: number,
  aboveBlock: bigint,
): Promise<void> {
  const above = aboveBlock.toString();
  await trx
    .deleteFrom("monitored_transfers")
    .where("chain_id", "=", chainId)
    .where("block_number", ">", above)
    .where("status", "=", "pending")
    .execute();
  await trx
    .updateTable("monitored_transfers")
    .set({ status: "unwound" })
    .where("chain_id", "=", chainId)
    .where("block_number", ">", above)
    .where("status", "=", "evaluated")
    .execute();
}

/** A transfer counts when it is in a block after the registration. */
function isNew(w: Watched, t: TransferRow): boolean {
  if (w.watch_from_block !== null) return t.blockNumber > BigInt(w.watch_from_block);
  return t.blockTime.getTime() >= new Date(w.created_at).getTime();
}
