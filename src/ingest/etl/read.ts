// Reads the export's files in order (blocks, transactions, token_transfers, logs, tokens, contracts), checks every
// row and yields staging batches of about `batchRows` rows. The first bad row stops the read with `file:line: reason`.
// Of a logs file only the transactions that emitted a bridge event are kept (a mainnet export's logs are mostly
// other contracts' events): their bridge events and their token Transfer logs. ethereum-etl writes a transaction's
// logs together, in log order, and the reading relies on it: a transaction whose logs a file does not keep together
// is read as several, a part without a bridge event is dropped, and an OFT leg whose token movement is in such a
// part is skipped (counted).
import { basename } from "node:path";
import type { ChainKind } from "../../chains/address/index.ts";
import { BRIDGE_TOPIC_LIST } from "../../chains/bridges/index.ts";
import { type Batch, emptyBatch } from "./batch.ts";
import { type ColumnIndex, mapHeader } from "./columns.ts";
import { type CsvRecord, readCsvBatches } from "./csv-reader.ts";
import { EtlInputError } from "./errors.ts";
import { FieldError } from "./fields.ts";
import type { EtlFile, EtlKind } from "./files.ts";
import {
  blockReader,
  contractReader,
  type LogRead,
  logReader,
  TRANSFER_TOPIC,
  type TransactionSkip,
  tokenReader,
  tokenTransferReader,
  transactionReader,
} from "./rows.ts";

export interface ReadCounts {
  /** data rows read, per kind of file */
  rows: Record<EtlKind, number>;
  nativeTransfers: number;
  tokenTransfers: number;
  /** transactions of the logs files that emitted a bridge event */
  bridgeTransactions: number;
  /** a bitcoin-etl export's (src/ingest/btc-etl): coinbase transactions, inputs and outputs without a single
   * address, CoinJoins and large transactions projected through a node of their own */
  bitcoin: { coinbase: number; withoutAddress: number; coinjoins: number; large: number };
  skipped: Record<TransactionSkip, number>;
  /** the file being read */
  file: string;
}

export function emptyCounts(): ReadCounts {
  return {
    rows: { blocks: 0, transactions: 0, token_transfers: 0, logs: 0, tokens: 0, contracts: 0 },
    nativeTransfers: 0,
    tokenTransfers: 0,
    bridgeTransactions: 0,
    bitcoin: { coinbase: 0, withoutAddress: 0, coinjoins: 0, large: 0 },
    skipped: { failed: 0, zero_value: 0, no_recipient: 0 },
    file: "",
  };
}

async function firstRecord(file: string): Promise<CsvRecord | undefined> {
  for await (const records of readCsvBatches(file, { chunkBytes: 64 * 1024 })) return records[0];
  return undefined;
}

/**
 * The logs-named files whose header is not a logs file's (an `import_logs.csv` beside the export): read as
 * ignored files, not as a failed import.
 */
export async function notLogsFiles(files: EtlFile[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const file of files.filter((f) => f.kind === "logs")) {
    const header = await firstRecord(file.path);
    try {
      if (header) mapHeader("logs", header.fields, file.path);
      else out.add(file.path);
    } catch {
      out.add(file.path);
    }
  }
  return out;
}

/** Checks every file's header before anything is read, so a missing column fails at once. */
export async function checkHeaders(files: EtlFile[]): Promise<void> {
  for (const file of files) {
    const header = await firstRecord(file.path);
    if (!header) throw new EtlInputError(file.path, undefined, "empty file (no header row)");
    mapHeader(file.kind, header.fields, file.path);
  }
}

/** Reads one row into the batch; `end`, when there is one, hands over what it held back at the end of the file. */
type RowHandler = ((fields: string[], line: number, batch: Batch) => void) & {
  end?: (batch: Batch) => void;
};

const BRIDGE_TOPICS = new Set(BRIDGE_TOPIC_LIST);

/** A logs file's handler: each transaction's logs are gathered, and kept when one of them is a bridge event. */
function bridgeLogHandler(read: (fields: string[]) => LogRead, counts: ReadCounts): RowHandler {
  let tx = "";
  let kept: LogRead[] = [];
  let bridged = false;
  const flush = (batch: Batch) => {
    if (bridged) {
      batch.bridgeTxs.push(kept);
      counts.bridgeTransactions++;
    }
    kept = [];
    bridged = false;
  };
  const handle: RowHandler = (fields, _line, batch) => {
    const log = read(fields);
    if (log.txHash !== tx) {
      flush(batch);
      tx = log.txHash;
    }
    const topic = log.topics[0];
    if (topic === undefined) return;
    if (BRIDGE_TOPICS.has(topic)) {
      bridged = true;
      kept.push(log);
    } else if (topic === TRANSFER_TOPIC && log.topics.length === 3) kept.push(log);
  };
  handle.end = flush;
  return handle;
}

function handlerFor(
  kind: EtlKind,
  header: string[],
  path: string,
  fileNo: number,
  counts: ReadCounts,
  chain: ChainKind,
): RowHandler {
  switch (kind) {
    case "transactions": {
      const read = transactionReader(mapHeader(kind, header, path) as ColumnIndex<"transactions">, chain);
      return (fields, line, batch) => {
        const tx = read(fields);
        if (tx.time !== undefined) batch.blockTimes.set(tx.block, tx.time);
        if (tx.contract) batch.contracts.add(tx.contract);
        if (tx.transfer) {
          batch.transfers.push({ file: fileNo, line, row: tx.transfer });
          counts.nativeTransfers++;
        } else if (tx.skipped) counts.skipped[tx.skipped]++;
      };
    }
    case "token_transfers": {
      const read = tokenTransferReader(
        mapHeader(kind, header, path) as ColumnIndex<"token_transfers">,
        chain,
      );
      return (fields, line, batch) => {
        batch.transfers.push({ file: fileNo, line, row: read(fields) });
        counts.tokenTransfers++;
      };
    }
    case "blocks": {
      const read = blockReader(mapHeader(kind, header, path) as ColumnIndex<"blocks">, chain);
      return (fields, _line, batch) => {
        const block = read(fields);
        batch.blocks.push(block);
        batch.blockTimes.set(block.number, block.time);
      };
    }
    case "logs":
      return bridgeLogHandler(logReader(mapHeader(kind, header, path) as ColumnIndex<"logs">), counts);
    case "tokens": {
      const read = tokenReader(mapHeader(kind, header, path) as ColumnIndex<"tokens">, chain);
      return (fields, _line, batch) => {
        batch.tokens.push(read(fields));
      };
    }
    case "contracts": {
      const read = contractReader(mapHeader(kind, header, path) as ColumnIndex<"contracts">, chain);
      return (fields, _line, batch) => {
        batch.contracts.add(read(fields));
      };
    }
  }
}

export interface ReadOptions {
  batchRows: number;
  counts: ReadCounts;
  /** how the chain writes addresses and hashes (fields.ts); EVM's when absent */
  chainKind?: ChainKind;
}

/** Yields batches of checked rows; a batch never spans two files. `counts` is kept up to date as rows are read. */
export async function* readExport(files: EtlFile[], options: ReadOptions): AsyncGenerator<Batch> {
  const { counts } = options;
  for (const [fileNo, file] of files.entries()) {
    counts.file = basename(file.path);
    let handle: RowHandler | undefined;
    let width = 0;
    let batch = emptyBatch();
    for await (const records of readCsvBatches(file.path)) {
      for (const record of records) {
        if (!handle) {
          handle = handlerFor(
            file.kind,
            record.fields,
            file.path,
            fileNo,
            counts,
            options.chainKind ?? "evm",
          );
          width = record.fields.length;
          continue;
        }
        if (record.fields.length !== width) {
          throw new EtlInputError(
            file.path,
            record.line,
            `${record.fields.length} fields where the header has ${width}`,
          );
        }
        try {
          handle(record.fields, record.line, batch);
        } catch (error) {
          if (error instanceof FieldError) throw new EtlInputError(file.path, record.line, error.message);
          throw error;
        }
        counts.rows[file.kind]++;
        batch.rows++;
        if (batch.rows >= options.batchRows) {
          yield batch;
          batch = emptyBatch();
        }
      }
    }
    if (!handle) throw new EtlInputError(file.path, undefined, "empty file (no header row)");
    handle.end?.(batch);
    if (batch.rows > 0 || batch.bridgeTxs.length > 0) yield batch;
  }
}
