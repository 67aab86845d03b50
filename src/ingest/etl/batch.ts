// One batch of checked rows, as read.ts hands them to the writer: at most one file's worth, a few tens of
// thousands of rows, so that memory stays the same whatever the size of the export.
import type { UtxoTx } from "../../risk/index.ts";
import type { BlockRead, LogRead, StagedTransfer, TokenRead } from "./rows.ts";

export interface Batch {
  /** transfers with where they come from (index of the file in the run's list, and line) */
  transfers: { file: number; line: number; row: StagedTransfer }[];
  /** block number -> ISO time, from blocks.csv and transactions */
  blockTimes: Map<string, string>;
  blocks: BlockRead[];
  tokens: TokenRead[];
  contracts: Set<string>;
  /** the logs of each transaction that emitted a bridge event: its bridge events and token Transfer logs */
  bridgeTxs: LogRead[][];
  /** a bitcoin-etl export's CoinJoin nodes (`coinjoin:<txid>`), labelled mixers (src/ingest/btc-etl) */
  hubLabels: { address: string; label: string }[];
  /** a bitcoin-etl export's transactions with inputs, for the address clusters (src/clusters) */
  utxo: UtxoTx[];
  /** rows of the input this batch stands for */
  rows: number;
}

export function emptyBatch(): Batch {
  return {
    transfers: [],
    blockTimes: new Map(),
    blocks: [],
    tokens: [],
    contracts: new Set(),
    bridgeTxs: [],
    hubLabels: [],
    utxo: [],
    rows: 0,
  };
}
