// `vigia import etl --chain C DIR`: the command line of the ethereum-etl import. Progress on stderr when it is a
// terminal; a one-line JSON summary on stdout; bad input fails with one line (file:line: reason) on stderr and a
// non-zero exit (main.ts).
import { type Command, InvalidArgumentError } from "commander";
import { BUILT_IN_CHAINS, ChainRegistry, loadChainRegistry } from "../../chains/index.ts";
import { importCommand, type WithDatabase } from "../cli.ts";
import { findEtlFiles } from "./files.ts";
import { importEtl } from "./import.ts";
import { etlProgress } from "./progress.ts";
import { notLogsFiles } from "./read.ts";

const HELP = `
Reads an ethereum-etl export directory: transactions.csv (required), token_transfers.csv, blocks.csv,
logs.csv, tokens.csv and contracts.csv (optional); a header row first, columns in any order, extra columns
ignored.
A file is taken by its name: <kind>.csv, or any .csv whose name has the kind as a word of its own
(ethereum_etl_transactions_block17173049.csv is transactions; when two kinds appear, the first wins).
Several files of a kind are all read. Other files (receipts, ...) are listed as ignored.

Of logs.csv only the transactions that emitted a bridge event are kept: Across deposits and fills, Circle
CCTP burns and mints, LayerZero OFT sends and receipts become bridge legs, which pair with the other chain's
legs however that chain was loaded (docs/risk-model.md, "Bridges"). A Tron chain's logs are not read.

Native transfers are the value of successful transactions (receipt_status 0 is skipped); zero-value
transactions move nothing and are skipped. Token transfers are stored as they are, zero-value ones too.
Nothing is written until every row has been read and checked; importing twice changes nothing, and an
interrupted import is completed by running it again.

On a Tron chain (kind "tron" in the chain list, e.g. 728126428) the export is tronetl's: addresses in
base58check (T...) or hex (41... or 0x...), hashes with or without 0x; a transaction whose status is not
SUCCESS is failed. Addresses are stored as 0x + 40 hex digits (docs/tron-etl.md).`;

/** The chain in the configured chain list, or in the built-in one when the configured list lacks it. */
export function chainOf(chainId: number, chainsFile: string | undefined) {
  const configured = loadChainRegistry(chainsFile);
  const known = configured.get(chainId) ? configured : new ChainRegistry(BUILT_IN_CHAINS);
  return { kind: known.codec(chainId).kind, config: known.get(chainId) };
}

export const chainIdArgument = (value: string) => {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) {
    throw new InvalidArgumentError("must be a chain id (a positive integer)");
  }
  return n;
};

export function registerImportEtlCommand(program: Command, withDatabase: WithDatabase): void {
  importCommand(program)
    .command("etl")
    .description("import an ethereum-etl CSV export (transfers, blocks, tokens, contracts) for one chain")
    .requiredOption(
      "--chain <id>",
      "chain id the export is of (1 Ethereum, 137 Polygon, 728126428 Tron, ...)",
      chainIdArgument,
    )
    .argument("<dir>", "directory of the export's CSV files")
    .addHelpText("after", HELP)
    .action((dir: string, opts: { chain: number }) =>
      withDatabase(async ({ database, config }) => {
        const chainKind = chainOf(opts.chain, config.chainsFile).kind;
        if (chainKind === "bitcoin") {
          throw new Error(
            `chain ${opts.chain} is a Bitcoin chain: its exports are bitcoin-etl's, read by vigia import btc-etl`,
          );
        }
        // The export's files, found as the import finds them, give the total the progress counts against.
        const { files } = findEtlFiles(dir, chainKind === "tron" ? ["logs"] : []);
        const notLogs = await notLogsFiles(files);
        const summary = await importEtl(database, {
          chainId: opts.chain,
          chainKind,
          dir,
          progress: etlProgress(files.filter((f) => !notLogs.has(f.path)).map((f) => f.path)),
        });
        if (summary.skipped.transfers_without_time > 0) {
          process.stderr.write(
            `vigia: warning: skipped ${summary.skipped.transfers_without_time} transfers whose block time is unknown ` +
              `(no blocks file row, transaction or stored block), first at ${summary.first_without_time}\n`,
          );
        }
        if (summary.not_logs_files.length > 0) {
          process.stderr.write(
            `vigia: warning: not read: ${summary.not_logs_files.join(", ")} (a name with "logs" in it, but not an ` +
              "ethereum-etl logs file's columns: log_index, transaction_hash, block_number, address, data, topics)\n",
          );
        }
        const { bridges } = summary;
        if (bridges.skipped_events > 0 || bridges.without_time > 0) {
          process.stderr.write(
            `vigia: warning: of ${bridges.transactions} transactions with bridge events, ${bridges.without_time} ` +
              `had no known block time and were not read; ${bridges.skipped_events} events were skipped: not ` +
              "decodable as their protocol writes them, from a contract that is not the protocol's, an OFT event " +
              "without its token movement, or a CCTP burn whose source domain is unknown (docs/risk-model.md, " +
              '"Bridges")\n',
          );
        }
        process.stdout.write(`${JSON.stringify(summary)}\n`);
      }),
    );
}
