// Writes one batch of checked rows: blocks, block times, transfers (timed by their block where the row has no
// time), tokens and contract marks. Tokens and contracts go through the store's shared writers. Blocks are
// inserted with ON CONFLICT DO NOTHING rather than the shared insertBlocks, whose overwrite is the indexer's reorg
// handling: an import must not replace what the indexer stored (nor blank a parent hash the file lacks).
// Bridge events are decoded into legs by the indexer's decoder (src/chains), timed by their block, and stored by
// the store's writer, which marks the addresses that bridged.
import { attributeTransfers } from "../../attribution/index.ts";
import { decodeBridgeLegs, type TxTransfer } from "../../chains/index.ts";
import {
  insertBridgeLegs,
  labelCoinJoinNodes,
  markContracts,
  upsertTokens,
} from "../../chains/store/index.ts";
import { clusterTransactions } from "../../clusters/index.ts";
import type { Batch } from "./batch.ts";
import type { BlockTimes } from "./block-times.ts";
import type { Conn } from "./connection.ts";
import { TRANSFER_TOPIC } from "./rows.ts";
import type { TimedTransfer, TransferWriter } from "./transfer-writer.ts";

export interface WriteTotals {
  written: number;
  untimed: number;
  /** the first transfer without a known time: file index, line, block */
  firstUntimed: { file: number; line: number; block: string } | undefined;
  /** bridge legs decoded and written (new or already there) */
  bridgeLegs: number;
  /** bridge events that did not decode as their protocol writes them, or came from an untrusted contract */
  bridgeSkipped: number;
  /** transactions with a bridge event whose block time is known nowhere */
  bridgeUntimed: number;
  /** a bitcoin-etl export's address clusters written (new, grown or changed) and stored clusters merged away */
  clustersWritten: number;
  clustersAbsorbed: number;
}

export const emptyTotals = (): WriteTotals => ({
  written: 0,
  untimed: 0,
  firstUntimed: undefined,
  bridgeLegs: 0,
  bridgeSkipped: 0,
  bridgeUntimed: 0,
  clustersWritten: 0,
  clustersAbsorbed: 0,
});

export interface BatchTargets {
  chainId: number;
  times: BlockTimes;
  transfers: TransferWriter;
}

async function writeBlocks(conn: Conn, chainId: number, batch: Batch): Promise<void> {
  const byNumber = new Map<string, (typeof batch.blocks)[number]>();
  for (const b of batch.blocks) if (!byNumber.has(b.number)) byNumber.set(b.number, b);
  const blocks = [...byNumber.values()];
  await conn.query(
    `INSERT INTO blocks (chain_id, number, hash, parent_hash, timestamp)
     SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::timestamptz[])
     ON CONFLICT (chain_id, number) DO NOTHING`,
    [
      chainId,
      blocks.map((b) => b.number),
      blocks.map((b) => b.hash),
      blocks.map((b) => b.parentHash),
      blocks.map((b) => b.time),
    ],
  );
}

async function timeTransfers(
  conn: Conn,
  targets: BatchTargets,
  batch: Batch,
  totals: WriteTotals,
): Promise<TimedTransfer[]> {
  const missing = new Set<string>();
  for (const { row } of batch.transfers) {
    if (row.time === undefined && !batch.blockTimes.has(row.block)) missing.add(row.block);
  }
  const known =
    missing.size > 0 ? await targets.times.resolve(conn, [...missing]) : new Map<string, string>();
  const timed: TimedTransfer[] = [];
  for (const { file, line, row } of batch.transfers) {
    if (row.time === undefined) row.time = batch.blockTimes.get(row.block) ?? known.get(row.block);
    if (row.time !== undefined) timed.push(row as TimedTransfer);
    else {
      totals.untimed++;
      totals.firstUntimed ??= { file, line, block: row.block };
    }
  }
  return timed;
}

const hex = (n: string | number) => `0x${BigInt(n).toString(16)}`;
/** An address held in a topic word's last 20 bytes. */
const topicAddress = (topic: string) => `0x${topic.slice(-40)}`;

async function writeBridgeLegs(
  conn: Conn,
  targets: BatchTargets,
  batch: Batch,
  totals: WriteTotals,
): Promise<void> {
  const blocks = new Set(batch.bridgeTxs.flatMap((logs) => logs.map((l) => l.block)));
  const known = await targets.times.resolve(conn, [...blocks]);
  const timeOf = new Map<bigint, Date>();
  for (const [block, iso] of known) timeOf.set(BigInt(block), new Date(iso));
  const transfers = new Map<string, TxTransfer[]>();
  const logs = [];
  for (const txLogs of batch.bridgeTxs) {
    if (txLogs.some((l) => !known.has(l.block))) {
      totals.bridgeUntimed++;
      continue;
    }
    const moved: TxTransfer[] = [];
    for (const l of txLogs) {
      if (l.topics[0] === TRANSFER_TOPIC && l.data.length === 66) {
        moved.push({
          token: l.address,
          from: topicAddress(l.topics[1] as string),
          to: topicAddress(l.topics[2] as string),
          value: BigInt(l.data),
        });
      }
      logs.push({
        address: l.address,
        topics: l.topics,
        data: l.data,
        blockNumber: hex(l.block),
        blockHash: "",
        transactionHash: l.txHash,
        logIndex: hex(l.logIndex),
      });
    }
    // A transaction whose logs a file does not keep together comes in several groups: their movements add up.
    const tx = txLogs[0]?.txHash ?? "";
    transfers.set(tx, [...(transfers.get(tx) ?? []), ...moved]);
  }
  const { legs, skipped } = decodeBridgeLegs(targets.chainId, logs, timeOf, (tx) => transfers.get(tx) ?? []);
  totals.bridgeSkipped += skipped;
  totals.bridgeLegs += legs.length;
  if (legs.length > 0) await insertBridgeLegs(conn.db, legs);
}

export async function writeBatch(
  conn: Conn,
  targets: BatchTargets,
  batch: Batch,
  totals: WriteTotals,
): Promise<void> {
  if (batch.blocks.length > 0) await writeBlocks(conn, targets.chainId, batch);
  await targets.times.add(conn, batch.blockTimes);
  if (batch.transfers.length > 0) {
    const timed = await timeTransfers(conn, targets, batch, totals);
    totals.written += await targets.transfers.write(conn, timed);
    // In the import's transaction: the deposit addresses these transfers reveal or change (src/attribution). The
    // COPY way does it once at its finish instead.
    if (targets.transfers.attributesEachBatch) await attributeTransfers(conn.db, targets.chainId, timed);
  }
  if (batch.tokens.length > 0) {
    // The first row of a token wins, as it does across batches (upsertTokens keeps what is known).
    const byAddress = new Map<string, (typeof batch.tokens)[number]>();
    for (const t of batch.tokens) if (!byAddress.has(t.address)) byAddress.set(t.address, t);
    await upsertTokens(
      conn.db,
      [...byAddress.values()].map((t) => ({ chainId: targets.chainId, ...t })),
    );
  }
  if (batch.contracts.size > 0) await markContracts(conn.db, targets.chainId, [...batch.contracts]);
  if (batch.bridgeTxs.length > 0) await writeBridgeLegs(conn, targets, batch, totals);
  if (batch.hubLabels.length > 0) await labelCoinJoinNodes(conn.db, targets.chainId, batch.hubLabels);
  if (batch.utxo.length > 0) {
    // After the labels: a CoinJoin's node is labelled before the clusters read labels (exchange inputs).
    const update = await clusterTransactions(conn.db, targets.chainId, batch.utxo);
    totals.clustersWritten += update.written;
    totals.clustersAbsorbed += update.absorbed;
  }
}
