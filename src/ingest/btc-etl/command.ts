// `vigia import btc-etl --chain C DIR`: a bitcoin-etl export into a Bitcoin chain of the chain list (kind
// "bitcoin"), through the ethereum-etl import's machinery (src/ingest/etl/import.ts with format "bitcoin-etl").
// Progress on stderr when it is a terminal; a one-line JSON summary on stdout; bad input fails with one line
// (file:line: reason) on stderr and a non-zero exit (main.ts).
import type { Command } from "commander";
import { MAX_PAIRS } from "../../chains/bitcoin/index.ts";
import { importCommand, type WithDatabase } from "../cli.ts";
import { chainIdArgument, chainOf } from "../etl/command.ts";
import { importEtl } from "../etl/import.ts";
import { etlProgress } from "../etl/progress.ts";
import { findBtcEtlFiles } from "./read.ts";

const HELP = `
Reads a bitcoin-etl export directory (the blockchain-etl project's JSON lines): transactions.json
(required) and blocks.json, JSON lines as bitcoin-etl's README defines them; any .json file whose name has
"transactions" or "blocks" as a word, in the directory or its partitions (blocks/start_block=.../...).
The chain must be a Bitcoin chain of the chain list: Bitcoin mainnet (177005167) is built in; a VIGIA_CHAINS file
declares others ("kind": "bitcoin", and "bitcoin_network" "mainnet", "testnet" or "regtest"). Addresses of another
network count as no address.

The export must be enriched (inputs with their values and addresses): bitcoinetl stream, export_all with
enrichment, or enrich_transactions after export_blocks_and_transactions.

Each transaction becomes transfers from each input to each output, in proportion to value:
input i pays output j  value_i x value_j / (sum of the inputs' values)  satoshis, rounded down,
where i and j are addresses (an address's inputs are summed, and so are the outputs to an address).
A CoinJoin (Whirlpool, WabiSabi, Wasabi 1, JoinMarket fingerprints) goes through a node coinjoin:<txid>,
labelled a mixer; any other transaction of more than ${MAX_PAIRS.toLocaleString("en-US")} input-output pairs through tx:<txid>.
Coinbase transactions and inputs and outputs without a single address (multisig, OP_RETURN, non-standard)
give no transfer; the summary counts them. A pay-to-pubkey output counts as its key's P2PKH address.
The address clusters (GET /clusters/{address}) are kept with each batch: the inputs a transaction spends
are one owner's, except in a CoinJoin, a Stonewall, a spend from a labelled exchange, or past 10,000
addresses; the summary's bitcoin.clusters says how many were written and merged away. Nothing is written until every line has been read and checked;
importing twice changes nothing.`;

export function registerImportBtcEtlCommand(program: Command, withDatabase: WithDatabase): void {
  importCommand(program)
    .command("btc-etl")
    .description("import a bitcoin-etl JSON export (blocks, transactions) into a Bitcoin chain")
    .requiredOption("--chain <id>", "the Bitcoin chain's id in the chain list", chainIdArgument)
    .argument("<dir>", "directory of the export's JSON files")
    .addHelpText("after", HELP)
    .action((dir: string, opts: { chain: number }) =>
      withDatabase(async ({ database, config }) => {
        const chain = chainOf(opts.chain, config.chainsFile);
        if (chain.kind !== "bitcoin") {
          throw new Error(
            `chain ${opts.chain} is not a Bitcoin chain (its kind is ${chain.kind}): add one to the chain list ` +
              '(VIGIA_CHAINS) with "kind": "bitcoin", or import an EVM or Tron export with vigia import etl',
          );
        }
        const { files } = findBtcEtlFiles(dir);
        const summary = await importEtl(database, {
          chainId: opts.chain,
          chainKind: "bitcoin",
          format: "bitcoin-etl",
          bitcoinNetwork: chain.config?.bitcoin_network ?? "mainnet",
          dir,
          progress: etlProgress(files.map((f) => f.path)),
        });
        process.stdout.write(`${JSON.stringify(summary)}\n`);
      }),
    );
}
