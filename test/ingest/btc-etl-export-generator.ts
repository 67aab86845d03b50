// A seeded, generated bitcoin-etl export (blocks.json, transactions.json: JSON lines as bitcoin-etl's enriched
// export writes them) that looks like a busy chain rather than the cases the clusterer is built for, and, beside it,
// the same transactions projected into the store's transfer rows as a CSV (for the benchmark's bare COPY):
// - wallets of one to six addresses that pay each other with change to a fresh address of their own (1-3 inputs);
// - five exchanges: users deposit to their own deposit address, which the exchange sweeps in consolidations of
//   20-100 inputs into its hot wallet (so its cluster grows to the service-scale cap), and pays withdrawals in
//   batches of 10-30 outputs;
// - WabiSabi rounds (1 in 200 transactions) of 30-60 users' inputs into standard denominations;
// - a coinbase per 2,000 transactions.
// Addresses are mainnet P2WPKH made from a counter; amounts in satoshis; blocks ten minutes apart.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { bech32 } from "@scure/base";
import { bitcoinPart, projectBitcoinTransaction } from "../../src/chains/bitcoin/index.ts";
import { type UtxoTx, WABISABI_DENOMINATIONS } from "../../src/risk/index.ts";

export interface BtcExport {
  dir: string;
  csv: string;
  transactions: number;
  transfers: number;
  /** a sample of users' first addresses (for scans) */
  users: string[];
}

const CHAIN = 177_005_167;
const TX_PER_BLOCK = 2_000;
const START = 1_735_689_600; // 2025-01-01

/** A mainnet P2WPKH address of program `n` (little-endian in its first six bytes). */
export function btcAddress(n: number): string {
  const program = new Uint8Array(20);
  let k = n;
  for (let i = 0; i < 6; i++) {
    program[i] = k & 255;
    k = Math.floor(k / 256);
  }
  program[19] = 0xb7;
  return bech32.encode("bc", [0, ...bech32.toWords(program)]);
}

/** mulberry32: small, fast and seeded. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateBtcExport(options: { dir: string; transactions: number; seed?: number }): BtcExport {
  const random = rng(options.seed ?? 42);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  fs.mkdirSync(options.dir, { recursive: true });
  const csvPath = `${options.dir}.transfers.csv`;
  const txOut = fs.openSync(path.join(options.dir, "transactions.json"), "w");
  const blockOut = fs.openSync(path.join(options.dir, "blocks.json"), "w");
  const csvOut = fs.openSync(csvPath, "w");
  fs.writeSync(
    csvOut,
    "chain_id,tx_hash,log_index,block_number,block_time,from_address,to_address,token,value\n",
  );
  let next = 1;
  const fresh = () => next++;
  const userCount = Math.max(100, Math.floor(options.transactions / 20));
  /** each user's addresses (ids); a payment's change goes to a fresh one */
  const wallets: number[][] = Array.from({ length: userCount }, () =>
    Array.from({ length: int(1, 6) }, fresh),
  );
  const exchanges = Array.from({ length: 5 }, () => ({ hot: fresh(), pending: [] as number[] }));
  const deposit = new Map<number, number>();
  const denominations = [...WABISABI_DENOMINATIONS].filter((v) => v > 100_000n && v < 50_000_000n);
  let transfers = 0;
  let written = 0;
  let txBuffer: string[] = [];
  let csvBuffer: string[] = [];
  const flush = () => {
    fs.writeSync(txOut, txBuffer.join(""));
    fs.writeSync(csvOut, csvBuffer.join(""));
    txBuffer = [];
    csvBuffer = [];
  };
  const emit = (inputs: [number, number][], outputs: [number, number][], coinbase = false) => {
    const block = 800_000 + Math.floor(written / TX_PER_BLOCK);
    const time = START + Math.floor(written / TX_PER_BLOCK) * 600;
    const hash = (written + 1).toString(16).padStart(64, "0");
    written++;
    const part = ([id, value]: [number, number]) => ({
      addresses: [btcAddress(id)],
      value,
      type: "witness_v0_keyhash",
    });
    txBuffer.push(
      `${JSON.stringify({
        hash,
        block_number: block,
        block_timestamp: time,
        is_coinbase: coinbase,
        inputs: inputs.map(part),
        outputs: outputs.map(part),
      })}\n`,
    );
    const iso = new Date(time * 1000).toISOString();
    const projected = projectBitcoinTransaction({
      hash,
      block: String(block),
      time: iso,
      coinbase,
      inputs: inputs.map(([id, v]) => bitcoinPart(btcAddress(id), false, BigInt(v), "mainnet")),
      outputs: outputs.map(([id, v]) => bitcoinPart(btcAddress(id), false, BigInt(v), "mainnet")),
    });
    for (const t of projected.transfers) {
      csvBuffer.push(
        `${CHAIN},${t.txHash},${t.logIndex},${block},${iso},${t.from},${t.to},native,${t.value}\n`,
      );
    }
    transfers += projected.transfers.length;
    if (txBuffer.length >= 5_000) flush();
    if (written % TX_PER_BLOCK === 1) {
      fs.writeSync(
        blockOut,
        `${JSON.stringify({ hash: hashOfBlock(block), number: block, timestamp: time, transaction_count: TX_PER_BLOCK })}\n`,
      );
    }
  };
  const user = () => wallets[int(0, userCount - 1)] as number[];
  const sats = () => int(10_000, 50_000_000);
  while (written < options.transactions) {
    const roll = random();
    if (written % TX_PER_BLOCK === 0) {
      emit([], [[fresh(), 312_500_000]], true);
    } else if (roll < 0.005) {
      // A WabiSabi round: largest first in and out, as its coordinator signs it.
      const k = int(30, 60);
      const inputs = Array.from({ length: k }, (): [number, number] => {
        const w = user();
        return [w[int(0, w.length - 1)] as number, int(5_000_000, 90_000_000)];
      }).sort((x, y) => y[1] - x[1]);
      const outputs = Array.from({ length: k * 2 }, (): [number, number] => [
        fresh(),
        Number(denominations[int(0, denominations.length - 1)]),
      ]).sort((x, y) => y[1] - x[1]);
      emit(inputs, outputs);
    } else if (roll < 0.1) {
      // A user's deposit to its own deposit address at an exchange; sweeps follow once 20-100 are pending.
      const u = int(0, userCount - 1);
      const w = wallets[u] as number[];
      const x = int(0, exchanges.length - 1);
      const exchange = exchanges[x] as { hot: number; pending: number[] };
      const key = u * 8 + x;
      const to = deposit.get(key) ?? fresh();
      deposit.set(key, to);
      emit([[w[0] as number, 2_000_000]], [[to, 1_990_000]]);
      exchange.pending.push(to);
      if (exchange.pending.length >= int(20, 100)) {
        emit(
          exchange.pending.map((d): [number, number] => [d, 1_990_000]),
          [[exchange.hot, exchange.pending.length * 1_990_000 - 5_000]],
        );
        exchange.pending = [];
      }
    } else if (roll < 0.17) {
      // A withdrawal batch from a hot wallet.
      const exchange = exchanges[int(0, exchanges.length - 1)] as { hot: number };
      const outputs = Array.from({ length: int(10, 30) }, (): [number, number] => {
        const w = user();
        return [w[int(0, w.length - 1)] as number, sats()];
      });
      emit(
        [[exchange.hot, outputs.reduce((n, o) => n + o[1], 0) + 100_000]],
        [...outputs, [exchange.hot, 50_000]],
      );
    } else {
      // A payment: 1-3 of the payer's addresses, to another user, with change to a fresh address of the payer.
      const w = user();
      const spent = Array.from(
        new Set(Array.from({ length: int(1, 3) }, () => w[int(0, w.length - 1)] as number)),
      );
      const inputs = spent.map((id): [number, number] => [id, sats()]);
      const total = inputs.reduce((n, i) => n + i[1], 0);
      const pay = Math.floor(total * (0.2 + random() * 0.6));
      const change = fresh();
      w.push(change);
      const payee = user();
      emit(inputs, [
        [payee[int(0, payee.length - 1)] as number, pay],
        [change, total - pay - 1_000],
      ]);
    }
  }
  flush();
  fs.closeSync(txOut);
  fs.closeSync(blockOut);
  fs.closeSync(csvOut);
  const users = Array.from({ length: 200 }, () => btcAddress(user()[0] as number));
  return { dir: options.dir, csv: csvPath, transactions: written, transfers, users };
}

const hashOfBlock = (n: number) => `00000000${n.toString(16).padStart(56, "0")}`;

/** The export's transactions with inputs, read back as the risk core's UTXO transactions, streamed. */
export async function* utxoTransactionsOf(dir: string): AsyncGenerator<UtxoTx> {
  const lines = readline.createInterface({ input: fs.createReadStream(path.join(dir, "transactions.json")) });
  type Part = { addresses: string[]; value: number };
  const part = (p: Part) => bitcoinPart(p.addresses[0], false, BigInt(p.value), "mainnet");
  for await (const line of lines) {
    const row = JSON.parse(line) as { hash: string; inputs: Part[]; outputs: Part[] };
    if (row.inputs.length > 0)
      yield { txid: row.hash, inputs: row.inputs.map(part), outputs: row.outputs.map(part) };
  }
}
