// The indexer's side of the store: its checkpoint, the batch write and the reorg unwind.
//
// A batch (blocks, transfers, token metadata, contract marks) and the checkpoint that covers it commit in one
// transaction, so a crash at any point leaves either all of it or none of it. The checkpoint moves by
// compare-and-set from the value the batch was built on: should two writers ever run for one chain (a lock holder
// whose connection silently died while another took over), the second commit finds the checkpoint moved and
// rolls back instead of writing the same blocks twice or skipping some.
import type { Kysely, Transaction } from "kysely";
import { attributeTransfers } from "../../attribution/index.ts";
import { clusterTransactions } from "../../clusters/index.ts";
import type { Checkpoint } from "../../ledger/index.ts";
import type { UtxoTx } from "../../risk/index.ts";
import type { DB } from "../../schema.ts";
import { deleteBridgeLegsAbove, insertBridgeLegs } from "../store/bridge-legs.ts";
import { labelCoinJoinNodes } from "../store/coinjoin-labels.ts";
import {
  type BlockRow,
  deleteTransfersAbove,
  insertBlocks,
  insertTransfers,
  markContracts,
  type TokenRow,
  type TransferRow,
  upsertTokens,
} from "../store/transfers.ts";
import type { BridgeLeg } from "./bridge-events.ts";
import type { IssuerFreezeEvent, IssuerFreezeSink } from "./issuer-freezes.ts";

export interface BatchRows {
  blocks: BlockRow[];
  transfers: TransferRow[];
  tokens: TokenRow[];
  contracts: string[];
  /** Handed to the IssuerFreezeSink in the batch's transaction (the labels are src/ingest's to write). */
  issuerFreezes?: IssuerFreezeEvent[];
  /** Bridge legs decoded from the batch's logs (bridge-events.ts). */
  bridgeLegs?: BridgeLeg[];
  /** A Bitcoin batch's CoinJoin nodes, labelled mixers (src/chains/bitcoin) */
  mixers?: { address: string; label: string }[];
  /** A Bitcoin batch's transactions with inputs, added to the address clusters (src/clusters) */
  utxo?: UtxoTx[];
}

/** Another writer moved the checkpoint since this one read it. */
export class CheckpointMovedError extends Error {
  override name = "CheckpointMovedError";
}

/**
 * What must see every transfer the indexer confirms, in the indexer's own transaction, so that what it records
 * commits with the checkpoint, exactly once (the monitoring of registered addresses): the batch written, and the
 * blocks a reorg unwinds.
 */
export interface TransferWatcher {
  written(trx: Kysely<DB>, chainId: number, transfers: readonly TransferRow[]): Promise<void>;
  /** everything above `aboveBlock` was unwound */
  unwound(trx: Kysely<DB>, chainId: number, aboveBlock: bigint): Promise<void>;
}

/** Writes a batch and moves the checkpoint from `expected` to `next`; returns the number of new transfers. */
export async function writeBatch(
  db: Kysely<DB>,
  chainId: number,
  rows: BatchRows,
  expected: Checkpoint | undefined,
  next: Checkpoint,
  beforeCommit?: () => Promise<void>,
  watcher?: TransferWatcher,
  freezes?: IssuerFreezeSink,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await insertBlocks(trx, rows.blocks);
    const inserted = await insertTransfers(trx, rows.transfers);
    await attributeTransfers(trx, chainId, rows.transfers);
    await watcher?.written(trx, chainId, rows.transfers);
    await upsertTokens(trx, rows.tokens);
    await markContracts(trx, chainId, rows.contracts);
    if (rows.bridgeLegs && rows.bridgeLegs.length > 0) await insertBridgeLegs(trx, rows.bridgeLegs);
    if (freezes && rows.issuerFreezes && rows.issuerFreezes.length > 0)
      await freezes.recorded(trx, chainId, rows.issuerFreezes);
    // The mixer labels before the clusters, which read labels (an exchange's inputs merge nothing).
    if (rows.mixers && rows.mixers.length > 0) await labelCoinJoinNodes(trx, chainId, rows.mixers);
    if (rows.utxo && rows.utxo.length > 0) await clusterTransactions(trx, chainId, rows.utxo);
    await moveCheckpoint(trx, chainId, expected, next);
    await beforeCommit?.();
    return inserted;
  });
}

/**
 * Deletes what was indexed above `ancestor` (everything from `startBlock` when there is no common ancestor) and
 * moves the checkpoint back to it. A Bitcoin chain's address clusters stay as they are: a transaction that spent
 * two addresses' coins was signed by whoever held both, whether or not its block stays in the chain (and it is
 * usually mined again in the other branch). First-seen facts that pointed into the removed blocks are cleared: the
 * address's earliest transfer was there (no earlier one exists, or it would be the first seen), so the
 * re-indexed chain sets them again.
 */
export async function unwindTo(
  db: Kysely<DB>,
  chainId: number,
  ancestor: Checkpoint | undefined,
  startBlock: bigint,
  expected: Checkpoint,
  watcher?: TransferWatcher,
  freezes?: IssuerFreezeSink,
): Promise<{ transfers: number; blocks: number }> {
  const above = (ancestor ? ancestor.number : startBlock - 1n).toString();
  return db.transaction().execute(async (trx) => {
    // The unwound transfers' ends are re-judged once they are gone (deposit attribution, src/attribution).
    // deleteTransfersAbove also takes the deleted transfers back from their ends' transfer counts.
    const unwound = await deleteTransfersAbove(trx, chainId, BigInt(above));
    await deleteBridgeLegsAbove(trx, chainId, BigInt(above));
    const blocks = await trx
      .deleteFrom("blocks")
      .where("chain_id", "=", chainId)
      .where("number", ">", above)
      .executeTakeFirst();
    await trx
      .updateTable("address_facts")
      .set({ first_seen_block: null, first_seen_at: null })
      .where("chain_id", "=", chainId)
      .where("first_seen_block", ">", above)
      .execute();
    await attributeTransfers(trx, chainId, unwound);
    await watcher?.unwound(trx, chainId, BigInt(above));
    await freezes?.unwound(trx, chainId, BigInt(above));
    await moveCheckpoint(trx, chainId, expected, ancestor);
    return { transfers: unwound.length, blocks: Number(blocks.numDeletedRows) };
  });
}

async function moveCheckpoint(
  trx: Transaction<DB>,
  chainId: number,
  expected: Checkpoint | undefined,
  next: Checkpoint | undefined,
): Promise<void> {
  let moved: bigint;
  if (!expected && next) {
    const result = await trx
      .insertInto("indexer_checkpoints")
      .values({
        chain_id: chainId,
        block_number: next.number.toString(),
        block_hash: next.hash,
        updated_at: new Date(),
      })
      .onConflict((oc) => oc.column("chain_id").doNothing())
      .executeTakeFirst();
    moved = result.numInsertedOrUpdatedRows ?? 0n;
  } else if (expected && next) {
    const result = await trx
      .updateTable("indexer_checkpoints")
      .set({ block_number: next.number.toString(), block_hash: next.hash, updated_at: new Date() })
      .where("chain_id", "=", chainId)
      .where("block_number", "=", expected.number.toString())
      .where("block_hash", "=", expected.hash)
      .executeTakeFirst();
    moved = result.numUpdatedRows;
  } else if (expected) {
    const result = await trx
      .deleteFrom("indexer_checkpoints")
      .where("chain_id", "=", chainId)
      .where("block_number", "=", expected.number.toString())
      .where("block_hash", "=", expected.hash)
      .executeTakeFirst();
    moved = result.numDeletedRows;
  } else {
    return;
  }
  if (moved !== 1n)
    throw new CheckpointMovedError(`the checkpoint of chain ${chainId} was moved by another writer`);
}

/**
 * Records the node's head as just read (migrations/0021_indexer_head.sql): with the checkpoint it is the chain's
 * lag, which verdicts, /readyz and /metrics show. Before the first batch commits there is no row: false.
 */
export async function recordHead(db: Kysely<DB>, chainId: number, head: bigint): Promise<boolean> {
  const result = await db
    .updateTable("indexer_checkpoints")
    .set({ head_number: head.toString(), head_seen_at: new Date() })
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
