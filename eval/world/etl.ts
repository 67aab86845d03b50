// The detection benchmark as files: a scenario World (eval/world, `benchmarkWorld`) written as an
// ethereum-etl export that `vigia import etl` reads, plus the labels, the prices and the list of cases, so that
// `npm run eval` (eval/run.ts) can measure detection through the real importers and the HTTP API.
//
// What `writeBenchmarkExport` writes into a directory (formats: README.md,
// "Commands"):
//
//   transactions.csv     one row per transaction, in chain order. A native (ETH) transfer is a transaction whose
//                        value is the amount (input `0x`); a token transfer is a zero-value call of the token
//                        contract's `transfer(to, amount)` (input is its ABI encoding), as on a real chain; the
//                        importer skips those rows (zero value) and reads the movement from token_transfers.csv.
//                        Every receipt_status is 1.
//   token_transfers.csv  one row per USDV / TKN transfer (log_index 0 of its transaction).
//   logs.csv             only for a world whose transactions emit events (the bridge benchmark, ./bridges.ts): each
//                        token transfer's Transfer log and the transaction's events, as ethereum-etl writes them.
//   blocks.csv           one block per distinct time of the world (numbers 1, 2, ... in time order; the hashes
//                        chain through parent_hash); transactions of the same second share a block.
//   tokens.csv           USDV and TKN (addresses as src/worlds/render/graph.ts: 0x…d1, 0x…d2).
//   contracts.csv        the token contracts, the mixer pools and router, and the world's other contracts (the DEX
//                        router, the bridge, the unlabelled staking, game and payroll contracts).
//   labels.csv           every labelled address (exchanges' hot wallets, the mixer pools and router, the sanctioned
//                        address, the scam, the bridge, the DEX router, the faucet; not the deposit addresses):
//                        `address,chain_id,label,category,source`, source `scenario:<namespace>`.
//   prices.csv           the daily USD price of ETH (`native`), USDV and TKN from the first to the last day of
//                        the world (the scenario's priceOn): `chain_id,token,date,price_usd`.
//   cases.json           { seed, perPattern, users, transfers, background, chainId, namespace, counts, cases: [{ id,
//                        pattern, positive, subject, variant, note, distance? }], deposits: [{ address, exchange }]
//                        }: every case to scan (eval/world: positives, near misses, the background
//                        sample under pattern "background" with its distance to the risky side, the
//                        sanctions-exposure chains at 1, 2 and 3 hops, and the dusted users under pattern
//                        "dusted"); and the exchanges' deposit addresses, which
//                        labels.csv does not name (as real label sets do not): the truth the service's inference
//                        is measured against.
//
// On a Tron-kind chain (writeBenchmarkExport's `chainTokens` TRON_TOKENS, src/worlds/render/chain-tokens.ts) the same
// world is written as Tron carries it: ETH as TRX (6 decimals; the TRX worth the same USD that day), USDV as USDT
// (6 decimals, USD 1, at mainnet USDT's contract address), TKN as a TRC-20; tokens.csv and prices.csv say so.
// Addresses and hashes stay in the hex form the service stores, which the importer takes on Tron-kind chains too.
//
// Transaction hashes are sha256(`<namespace>:<position in the timeline>`), as writeWorldToStore
// (src/worlds/render/store.ts) makes them, so a store filled by this export and one filled by writeWorldToStore
// hold the same transfers. Everything derives from the seed and the sizes: the same options give byte-identical
// files (no clock, no randomness outside the seeded Rng, fixed row order).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  type ChainTokens,
  DAY,
  EVM_TOKENS,
  type PlannedTransfer,
  type TokenSymbol,
  transactionsOf,
  type World,
} from "../../src/worlds/index.ts";
import { benchmarkWorld, defaultBackground } from "./index.ts";

export interface BenchmarkOptions {
  seed: number;
  /** positives and as many false friends per pattern; as many sanctions-exposure chains (3 cases each) */
  perPattern: number;
  /** ordinary users of the background traffic */
  users: number;
  /** everyday background transfers */
  transfers: number;
  /** plain background users scanned as negatives for every pattern (default: src/worlds defaultBackground) */
  background?: number;
}

export interface ExportCase {
  id: string;
  /**
   * a pattern of PATTERNS, "background" (a plain user: negative for every pattern), "sanctions_exposure" or "dusted"
   * (an ordinary user sent dust by sanctioned and mixer addresses: scored for false alerts only)
   */
  pattern: string;
  positive: boolean;
  subject: string;
  /** the generator's variant (e.g. "two-hops", "received-3000", "neighbour") */
  variant: string;
  note: string;
  /** background users: hops to the nearest sanctioned, illicit or mixer address (absent: farther than 4) */
  distance?: number;
}

/** An exchange deposit address of the world (unlabelled): the inference's ground truth. */
export interface DepositTruth {
  address: string;
  exchange: string;
}

export interface CasesFile extends BenchmarkOptions {
  background: number;
  chainId: number;
  namespace: string;
  counts: {
    transactions: number;
    nativeTransfers: number;
    tokenTransfers: number;
    blocks: number;
    /** rows of logs.csv (0: a world without events writes none) */
    logs: number;
    labels: number;
    prices: number;
  };
  cases: ExportCase[];
  deposits: DepositTruth[];
}

export const EXPORT_FILES = [
  "transactions.csv",
  "token_transfers.csv",
  "blocks.csv",
  "tokens.csv",
  "contracts.csv",
  "labels.csv",
  "prices.csv",
  "cases.json",
] as const;

/** The chain id the benchmark's data is imported under unless told otherwise (not a real chain). */
export const BENCHMARK_CHAIN_ID = 8_453_001;
/**
 * The chain id of the benchmark's Tron-kind chain (`npm run eval` measures the same world there): not Tron
 * mainnet's 728126428 nor the Tron devnet's 728131337, and a chain only the eval's chains file names.
 */
export const BENCHMARK_TRON_CHAIN_ID = 728_453_001;

const TX_HEADER =
  "hash,nonce,block_number,block_timestamp,transaction_index,from_address,to_address,value,gas,gas_price,input,receipt_status";
const TOKEN_TRANSFER_HEADER =
  "token_address,from_address,to_address,value,transaction_hash,log_index,block_number";
const LOG_HEADER = "log_index,transaction_hash,transaction_index,block_hash,block_number,address,data,topics";
const TRANSFER_SELECTOR = "0xa9059cbb"; // transfer(address,uint256)
/** ERC-20's Transfer(address indexed from, address indexed to, uint256 value). */
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const word = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;
/** A swap's call data: the selector of Uniswap V2's swapExactETHForTokens (the importer reads no input). */
const SWAP_INPUT = "0x7ff36ab5";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A CSV field, quoted only when it must be. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
const line = (values: (string | number)[]) => values.map(field).join(",");

/** The ABI encoding of `transfer(to, amount)`. */
function transferInput(to: string, amount: bigint): string {
  return `${TRANSFER_SELECTOR}${to.slice(2).padStart(64, "0")}${amount.toString(16).padStart(64, "0")}`;
}

/** Generates the benchmark world of `options` and writes it as an export into `dir` (created if missing). */
export function writeBenchmarkExport(
  dir: string,
  options: BenchmarkOptions,
  chainId = BENCHMARK_CHAIN_ID,
  chainTokens: ChainTokens = EVM_TOKENS,
): CasesFile {
  const resolved = { ...options, background: options.background ?? defaultBackground(options.users) };
  const world = benchmarkWorld(resolved);
  return writeWorldExport(dir, world, { ...resolved, chainId }, chainTokens);
}

/**
 * Writes any scenario World as an export into `dir`, its tokens as `chainTokens` writes them on the chain (EVM:
 * as they are); `meta` is recorded in cases.json.
 */
export function writeWorldExport(
  dir: string,
  world: World,
  meta: BenchmarkOptions & { chainId: number },
  chainTokens: ChainTokens = EVM_TOKENS,
  /** `logs: false`: no logs.csv even for a world whose transactions emit events (the bridge ablation) */
  files: { logs?: boolean } = {},
): CasesFile {
  fs.mkdirSync(dir, { recursive: true });
  const { chainId } = meta;
  const timeline = world.timeline();

  const transactions: string[] = [TX_HEADER];
  const tokenTransfers: string[] = [TOKEN_TRANSFER_HEADER];
  const blocks: string[] = ["number,hash,parent_hash,timestamp,transaction_count"];
  const nonces = new Map<string, number>();
  let native = 0;
  let token = 0;
  let block = 0;
  let parent = `0x${"0".repeat(64)}`;
  // Transactions of one block: written once the block is complete (blocks.csv needs its transaction count).
  // A transaction is one timeline transfer, or the legs of a World.transaction (a swap) together.
  type Tx = { hash: string; legs: PlannedTransfer[]; logs: number[]; tx: number | undefined };
  // logs.csv, only for a world whose transactions emit events (bridges): each token transfer's Transfer log, then
  // the transaction's events.
  const withLogs = (files.logs ?? true) && world.events.size > 0;
  const logRows: string[] = [LOG_HEADER];
  let inBlock: Tx[] = [];

  const closeBlock = () => {
    if (inBlock.length === 0) return;
    block++;
    const at = inBlock[0]!.legs[0]!.at;
    const hash = `0x${sha256(`${world.namespace}:block:${block}`)}`;
    blocks.push(line([block, hash, parent, at, inBlock.length]));
    parent = hash;
    inBlock.forEach(({ hash: txHash, legs, logs, tx }, index) => {
      if (withLogs) {
        let next = 0;
        const logRow = (address: string, data: string, topics: string[]) =>
          logRows.push(line([next++, txHash, index, hash, block, address, data, topics.join(",")]));
        legs.forEach((t, k) => {
          if (t.token === "ETH") return;
          next = logs[k]!;
          logRow(
            chainTokens.tokens[t.token].address,
            `0x${chainTokens.units(t.token, t.amount).toString(16).padStart(64, "0")}`,
            [TRANSFER_TOPIC, word(t.from), word(t.to)],
          );
        });
        for (const e of (tx !== undefined && world.events.get(tx)) || []) logRow(e.address, e.data, e.topics);
      }
      const sender = legs[0]!.from;
      const nonce = nonces.get(sender) ?? 0;
      nonces.set(sender, nonce + 1);
      const amounts = legs.map((t) => {
        const amount = chainTokens.units(t.token, t.amount);
        // A zero value would be skipped by the importer: the transfer would be missing from the chain's data.
        if (amount <= 0n) throw new Error(`${t.amount} ${t.token} is nothing on a ${chainTokens.kind} chain`);
        return amount;
      });
      if (legs.length > 1) {
        // A swap: the sender calls the router (with the ETH leg as the value); each token leg is a log.
        const nativeLeg = legs.findIndex((t) => t.token === "ETH");
        if (nativeLeg >= 0) native++;
        const value = nativeLeg >= 0 ? amounts[nativeLeg]!.toString() : "0";
        transactions.push(
          line([txHash, nonce, block, at, index, sender, legs[0]!.to, value, 150000, 20e9, SWAP_INPUT, 1]),
        );
        legs.forEach((t, k) => {
          if (t.token === "ETH") return;
          token++;
          const contract = chainTokens.tokens[t.token].address;
          tokenTransfers.push(
            line([contract, t.from, t.to, amounts[k]!.toString(), txHash, logs[k]!, block]),
          );
        });
        return;
      }
      const t = legs[0]!;
      const amount = amounts[0]!;
      if (t.token === "ETH") {
        native++;
        transactions.push(
          line([txHash, nonce, block, at, index, t.from, t.to, amount.toString(), 21000, 20e9, "0x", 1]),
        );
      } else {
        token++;
        const contract = chainTokens.tokens[t.token].address;
        transactions.push(
          line([
            txHash,
            nonce,
            block,
            at,
            index,
            t.from,
            contract,
            0,
            60000,
            20e9,
            transferInput(t.to, amount),
            1,
          ]),
        );
        tokenTransfers.push(line([contract, t.from, t.to, amount.toString(), txHash, 0, block]));
      }
    });
    inBlock = [];
  };
  let current: Tx | undefined;
  for (const { t, hashIndex, logIndex } of transactionsOf(timeline)) {
    const txHash = `0x${sha256(`${world.namespace}:${hashIndex}`)}`;
    if (current?.hash === txHash) {
      current.legs.push(t);
      current.logs.push(logIndex);
      continue;
    }
    if (inBlock.length > 0 && inBlock[0]!.legs[0]!.at !== t.at) closeBlock();
    current = { hash: txHash, legs: [t], logs: [logIndex], tx: t.tx };
    inBlock.push(current);
  }
  closeBlock();

  const tokenSymbols = ["USDV", "TKN"] as const;
  const tokens = [
    "address,symbol,name,decimals,total_supply",
    ...tokenSymbols.map((s) => {
      const spec = chainTokens.tokens[s];
      return line([spec.address, spec.symbol, spec.name, spec.decimals, ""]);
    }),
  ];
  const labelled = world.labelled();
  // Mixers are contracts even in worlds that don't say so (the devnet's); every account marked a contract too.
  const contractAddresses = new Set([
    ...labelled.filter((a) => a.label?.category === "mixer").map((a) => a.address),
    ...world.contracts().map((a) => a.address),
  ]);
  const contracts = [
    "address",
    ...tokenSymbols.map((s) => chainTokens.tokens[s].address),
    ...[...contractAddresses].sort(),
  ];

  const source = `scenario:${world.namespace}`;
  const labels = [
    "address,chain_id,label,category,source",
    ...labelled.map((a) => line([a.address, chainId, a.label!.label, a.label!.category, source])),
  ];

  const prices = ["chain_id,token,date,price_usd"];
  if (timeline.length > 0) {
    const first = Math.floor(timeline[0]!.at / DAY) * DAY;
    const last = Math.floor(timeline[timeline.length - 1]!.at / DAY) * DAY;
    for (let day = first; day <= last; day += DAY) {
      const date = new Date(day * 1000).toISOString().slice(0, 10);
      for (const symbol of Object.keys(chainTokens.tokens) as TokenSymbol[]) {
        prices.push(
          line([chainId, chainTokens.tokens[symbol].address, date, String(chainTokens.price(symbol, day))]),
        );
      }
    }
  }

  const cases: CasesFile = {
    seed: meta.seed,
    perPattern: meta.perPattern,
    users: meta.users,
    transfers: meta.transfers,
    background: meta.background ?? world.cases.filter((c) => c.pattern === "background").length,
    chainId,
    namespace: world.namespace,
    counts: {
      transactions: transactions.length - 1,
      nativeTransfers: native,
      tokenTransfers: token,
      blocks: block,
      logs: logRows.length - 1,
      labels: labels.length - 1,
      prices: prices.length - 1,
    },
    cases: world.cases.map((c) => ({
      id: c.id,
      pattern: c.pattern,
      positive: c.positive,
      subject: c.subject,
      variant: c.variant ?? "",
      note: c.note,
      ...(c.distance !== undefined ? { distance: c.distance } : {}),
    })),
    deposits: [...world.deposits]
      .map(([address, d]) => ({ address, exchange: d.exchange }))
      .sort((a, b) => (a.address < b.address ? -1 : 1)),
  };

  const write = (name: string, rows: string[]) =>
    fs.writeFileSync(path.join(dir, name), `${rows.join("\n")}\n`);
  write("transactions.csv", transactions);
  write("token_transfers.csv", tokenTransfers);
  if (withLogs) write("logs.csv", logRows);
  write("blocks.csv", blocks);
  write("tokens.csv", tokens);
  write("contracts.csv", contracts);
  write("labels.csv", labels);
  write("prices.csv", prices);
  fs.writeFileSync(path.join(dir, "cases.json"), `${JSON.stringify(cases, null, 2)}\n`);
  return cases;
}

/** Reads the cases.json of an export directory. */
export function readCases(dir: string): CasesFile {
  return JSON.parse(fs.readFileSync(path.join(dir, "cases.json"), "utf8")) as CasesFile;
}
