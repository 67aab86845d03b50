// `import etl`: an ethereum-etl export directory into the chain data store for one chain.
//
// The files are streamed in order (blocks, transactions, token_transfers, logs, tokens, contracts), every row is
// checked (read.ts; on PGlite in a worker thread: parallel-read.ts) and written in batches (write-batch.ts);
// memory stays flat whatever the size of the export.
// How batches are grouped into transactions depends on the database (session.ts): on PostgreSQL and on PGlite
// owned by this process the whole import is one transaction, so a bad row (`file:line: reason`) or a killed
// process leaves nothing behind; through the socket bridge of a running `vigia serve` every row is checked first,
// then written in short transactions.
//
// Each run is recorded in import_runs ('running', then 'completed' in the data's own transaction, or 'failed');
// a run left 'running' by a killed process is marked failed by the next run (runs.ts). Importing twice changes
// nothing: every write is ON CONFLICT DO NOTHING or keeps what the store has.
//
// Only the reading of addresses and hashes depends on the chain (fields.ts): a Tron-kind chain's export is
// tronetl's (base58check addresses, hashes without 0x; docs/tron-etl.md), stored in the same 0x form as EVM's.
// An EVM export's logs files give the bridges' legs (Across, Circle CCTP, LayerZero OFT), decoded as the
// indexer decodes them; a Tron-kind chain's logs are not read. A Bitcoin chain's export is bitcoin-etl's
// (src/ingest/btc-etl: JSON lines, its transactions projected into transfers), read on this thread and written the
// same way.
import path from "node:path";
import type { BitcoinNetwork, ChainKind } from "../../chains/address/index.ts";
import { BUILT_IN_CHAINS, ChainRegistry } from "../../chains/index.ts";
import type { Database } from "../../platform/db/open.ts";
import type { DB } from "../../schema.ts";
import { findBtcEtlFiles, readBtcExport } from "../btc-etl/read.ts";
import { BlockTimes } from "./block-times.ts";
import { findEtlFiles } from "./files.ts";
import { readExportInWorker } from "./parallel-read.ts";
import { type EtlProgress, NO_PROGRESS } from "./progress.ts";
import { checkHeaders, emptyCounts, notLogsFiles, type ReadCounts, readExport } from "./read.ts";
import { cleanUpDeadRuns, finishRun, progressRun, releaseRun, startRun } from "./runs.ts";
import { openSession } from "./session.ts";
import { TransferWriter } from "./transfer-writer.ts";
import { emptyTotals, type WriteTotals, writeBatch } from "./write-batch.ts";

export interface ImportEtlOptions {
  chainId: number;
  dir: string;
  /**
   * How the chain writes addresses ("evm" or "tron"); when absent, the built-in chain list's kind for `chainId`
   * (EVM for a chain it does not know). The command passes the configured list's (VIGIA_CHAINS).
   */
  chainKind?: ChainKind;
  progress?: EtlProgress;
  /** rows per batch (default 50,000; 5,000 through the socket bridge, to keep `vigia serve` responsive) */
  batchRows?: number;
  /**
   * What the directory holds: ethereum-etl's CSV files (default; tronetl's on a Tron-kind chain) or bitcoin-etl's
   * JSON lines (`vigia import btc-etl`, src/ingest/btc-etl), which only a Bitcoin chain takes.
   */
  format?: "ethereum-etl" | "bitcoin-etl";
  /** a Bitcoin chain's network (its addresses'); mainnet when absent */
  bitcoinNetwork?: BitcoinNetwork;
}

export interface ImportEtlSummary {
  run_id: number;
  chain_id: number;
  dir: string;
  files: string[];
  /** files not read: other kinds than the import's, and logs-named files without a logs file's columns */
  ignored_files: string[];
  /** of those, the logs-named ones without a logs file's columns */
  not_logs_files: string[];
  /** data rows read, per kind of file */
  rows: Record<string, number>;
  rows_read: number;
  transfers: {
    native: number;
    token: number;
    /** new in the store (0 when everything was there already) */
    written: number;
  };
  /** a bitcoin-etl export's: what its transactions gave no transfer for (src/chains/bitcoin/project.ts) */
  bitcoin?: {
    coinbase_transactions: number;
    parts_without_address: number;
    /** CoinJoins, projected through a `coinjoin:<txid>` node labelled a mixer */
    coinjoins: number;
    /** transactions of more than 10,000 input-output pairs, projected through a `tx:<txid>` node */
    large_transactions: number;
    /**
     * address clusters (src/clusters) this import wrote (new, grown or changed) and stored clusters it merged into
     * others
     */
    clusters: { written: number; merged_away: number };
  };
  /** the logs files' bridge events (docs/risk-model.md, "Bridges") */
  bridges: {
    /** transactions that emitted a bridge event */
    transactions: number;
    /** legs decoded and stored (a leg already stored counts too) */
    legs: number;
    /** events that did not decode as their protocol writes them, or came from a contract not the protocol's */
    skipped_events: number;
    /** transactions whose block time is known nowhere (not in blocks.csv, transactions.csv or the store) */
    without_time: number;
  };
  skipped: {
    failed_transactions: number;
    zero_value_transactions: number;
    creations_without_address: number;
    /** transfers whose block time is known nowhere (no blocks file row, transaction or stored block) */
    transfers_without_time: number;
  };
  first_without_time?: string;
  seconds: number;
}

const BUILT_IN = new ChainRegistry(BUILT_IN_CHAINS);

const rowsRead = (counts: ReadCounts) => Object.values(counts.rows).reduce((a, b) => a + b, 0);

export async function importEtl(
  database: Database<DB>,
  options: ImportEtlOptions,
): Promise<ImportEtlSummary> {
  const started = Date.now();
  const progress = options.progress ?? NO_PROGRESS;
  const chainKind = options.chainKind ?? BUILT_IN.codec(options.chainId).kind;
  const bitcoin = (options.format ?? "ethereum-etl") === "bitcoin-etl";
  if (bitcoin !== (chainKind === "bitcoin")) {
    throw new Error(
      bitcoin
        ? `chain ${options.chainId} is not a Bitcoin chain (its kind is ${chainKind}): vigia import btc-etl reads ` +
            "bitcoin-etl exports; an EVM or Tron export goes through vigia import etl"
        : `chain ${options.chainId} is a Bitcoin chain: its exports are bitcoin-etl's, read by vigia import btc-etl`,
    );
  }
  const found = bitcoin
    ? findBtcEtlFiles(options.dir)
    : findEtlFiles(options.dir, chainKind === "tron" ? ["logs"] : []);
  const notLogs = bitcoin ? new Set<string>() : await notLogsFiles(found.files);
  const files = found.files.filter((f) => !notLogs.has(f.path));
  const ignored = [...found.ignored, ...[...notLogs].map((p) => path.basename(p))].sort();
  if (!bitcoin) await checkHeaders(files);

  const session = await openSession(database);
  const counts = emptyCounts();
  const totals: WriteTotals = emptyTotals();
  let runId: string | undefined;
  try {
    await cleanUpDeadRuns(session.book, database.kind);
    runId = await startRun(session.book, database.kind, options.chainId, path.resolve(options.dir));
    const id = runId;
    const batchRows = options.batchRows ?? (session.atomic ? 50_000 : 5_000);
    // PGlite in this process runs its WebAssembly on this thread: the rows are read and checked in a worker thread
    // meanwhile. A database in another process (PostgreSQL, `vigia serve`) works in parallel with this thread
    // already, and there the worker only cost time (copying batches between threads) and memory.
    const network = options.bitcoinNetwork ?? "mainnet";
    const read: typeof readExport = bitcoin
      ? (list, o) => readBtcExport(list, { ...o, network })
      : database.pglite
        ? readExportInWorker
        : readExport;
    const report = (phase: "checking" | "importing") =>
      progress.reading({ phase, file: counts.file, rows: rowsRead(counts), transfers: totals.written });

    if (!session.atomic) {
      // Check everything before the first write: batches will commit one by one.
      const check = emptyCounts();
      for await (const _ of read(files, { batchRows, counts: check, chainKind })) {
        progress.reading({ phase: "checking", file: check.file, rows: rowsRead(check), transfers: 0 });
      }
    }

    const times = new BlockTimes(
      session.atomic ? "etl_block_times" : `etl_block_times_${id}`,
      options.chainId,
    );
    const transfers = new TransferWriter(options.chainId, session.atomic);
    await session.writing(async (conn, unit) => {
      await times.create(conn, session.atomic);
      await transfers.start(conn);
      let lastBook = Date.now();
      // The next batch is read and checked (on PGlite in the worker thread) while the database writes the previous
      // one.
      let writing: Promise<void> = Promise.resolve();
      try {
        for await (const batch of read(files, { batchRows, counts, chainKind })) {
          await writing;
          // Between two batches: through the socket bridge the one connection is free only now. The bookkeeping
          // connection is the PGlite instance itself when it is ours: busy until the commit.
          if (Date.now() - lastBook >= 1000 && !(session.atomic && database.pglite)) {
            lastBook = Date.now();
            await progressRun(session.book, id, { rowsRead: rowsRead(counts), rowsWritten: totals.written });
          }
          writing = unit(() =>
            writeBatch(conn, { chainId: options.chainId, times, transfers }, batch, totals),
          );
          writing.catch(() => {}); // awaited on the next turn (or below); never an unhandled rejection meanwhile
          report("importing");
        }
      } catch (error) {
        await writing.catch(() => {}); // no rollback while a write is still under way
        throw error;
      }
      await writing;
      await unit(() => transfers.finish(conn));
      if (!session.atomic) await times.drop(conn);
      // Completed in the same transaction as the data, when there is one.
      await finishRun(conn, id, {
        status: "completed",
        rowsRead: rowsRead(counts),
        rowsWritten: totals.written,
      });
    });
    const first = totals.firstUntimed;
    return {
      run_id: Number(runId),
      chain_id: options.chainId,
      dir: path.resolve(options.dir),
      files: files.map((f) => path.basename(f.path)),
      ignored_files: ignored,
      not_logs_files: [...notLogs].map((p) => path.basename(p)).sort(),
      rows: { ...counts.rows },
      rows_read: rowsRead(counts),
      transfers: { native: counts.nativeTransfers, token: counts.tokenTransfers, written: totals.written },
      ...(bitcoin
        ? {
            bitcoin: {
              coinbase_transactions: counts.bitcoin.coinbase,
              parts_without_address: counts.bitcoin.withoutAddress,
              coinjoins: counts.bitcoin.coinjoins,
              large_transactions: counts.bitcoin.large,
              clusters: { written: totals.clustersWritten, merged_away: totals.clustersAbsorbed },
            },
          }
        : {}),
      bridges: {
        transactions: counts.bridgeTransactions,
        legs: totals.bridgeLegs,
        skipped_events: totals.bridgeSkipped,
        without_time: totals.bridgeUntimed,
      },
      skipped: {
        failed_transactions: counts.skipped.failed,
        zero_value_transactions: counts.skipped.zero_value,
        creations_without_address: counts.skipped.no_recipient,
        transfers_without_time: totals.untimed,
      },
      ...(first
        ? {
            first_without_time: `${path.basename(files[first.file]?.path ?? "?")}:${first.line} (block ${first.block})`,
          }
        : {}),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } catch (error) {
    if (runId !== undefined) {
      await finishRun(session.book, runId, {
        status: "failed",
        error: (error as Error).message,
        rowsRead: rowsRead(counts),
        rowsWritten: session.atomic ? 0 : totals.written,
      }).catch(() => {});
    }
    throw error;
  } finally {
    if (runId !== undefined) await releaseRun(session.book, database.kind, runId).catch(() => {});
    progress.done();
    session.release();
  }
}
