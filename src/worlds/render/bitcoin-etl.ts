// A Bitcoin world (bitcoin-world.ts) as a bitcoin-etl export: blocks.json and transactions.json, JSON lines as the
// blockchain-etl project's enriched export writes them (inputs with the address and value of the output they spend),
// which `vigia import btc-etl` and the Bitcoin devnet read. Blocks are ten minutes apart from `genesisTime`; a
// transaction goes in the first block at or after its time, and the block's time is every one of its transactions'
// time, as on the chain. Only blocks holding transactions are written.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { BitcoinWorld, BtcWorldTx } from "../bitcoin-world.ts";

const BLOCK_SECONDS = 600;

export interface BitcoinEtlSummary {
  dir: string;
  blocks: number;
  transactions: number;
  firstDay: number;
  lastDay: number;
}

/** The block of a transaction made at `at`. */
const blockOf = (at: number, genesisTime: number) => Math.ceil((at - genesisTime) / BLOCK_SECONDS);

const blockHash = (namespace: string, n: number) =>
  crypto.createHash("sha256").update(`${namespace}:block:${n}`).digest("hex");

/** Writes the world's export into `dir` (created; its two files replaced). */
export function writeBitcoinEtl(world: BitcoinWorld, dir: string, genesisTime: number): BitcoinEtlSummary {
  fs.mkdirSync(dir, { recursive: true });
  const txs = world.ordered();
  const byBlock = new Map<number, BtcWorldTx[]>();
  for (const tx of txs) {
    const n = blockOf(tx.at, genesisTime);
    if (n < 1) throw new Error(`a transaction at ${tx.at} before the genesis block`);
    byBlock.set(n, [...(byBlock.get(n) ?? []), tx]);
  }
  const blockLines: string[] = [];
  const txLines: string[] = [];
  for (const [n, inBlock] of byBlock) {
    const hash = blockHash(world.namespace, n);
    const timestamp = genesisTime + n * BLOCK_SECONDS;
    blockLines.push(
      JSON.stringify({ hash, number: n, timestamp, transaction_count: inBlock.length, type: "block" }),
    );
    inBlock.forEach((tx, index) => {
      txLines.push(JSON.stringify(etlTransaction(tx, { n, hash, timestamp, index })));
    });
  }
  fs.writeFileSync(path.join(dir, "blocks.json"), `${blockLines.join("\n")}\n`);
  fs.writeFileSync(path.join(dir, "transactions.json"), `${txLines.join("\n")}\n`);
  const times = txs.map((t) => t.at);
  const day = (t: number) => Math.floor(t / 86_400) * 86_400;
  return {
    dir,
    blocks: byBlock.size,
    transactions: txs.length,
    firstDay: day(Math.min(...times)),
    lastDay: day(Math.max(...times)),
  };
}

function etlTransaction(
  tx: BtcWorldTx,
  block: { n: number; hash: string; timestamp: number; index: number },
): Record<string, unknown> {
  const inputValue = tx.inputs.reduce((n, c) => n + c.value, 0n);
  const outputValue = tx.outputs.reduce((n, o) => n + o.value, 0n);
  return {
    hash: tx.txid,
    block_number: block.n,
    block_hash: block.hash,
    block_timestamp: block.timestamp,
    index: block.index,
    is_coinbase: tx.coinbase,
    input_count: tx.inputs.length,
    output_count: tx.outputs.length,
    input_value: Number(inputValue),
    output_value: Number(outputValue),
    fee: tx.coinbase ? 0 : Number(inputValue - outputValue),
    inputs: tx.inputs.map((coin, index) => ({
      index,
      spent_transaction_hash: coin.txid,
      spent_output_index: coin.vout,
      type: "witness_v0_keyhash",
      addresses: [coin.address],
      value: Number(coin.value),
    })),
    outputs: tx.outputs.map((output, index) => ({
      index,
      type: "witness_v0_keyhash",
      addresses: [output.address],
      value: Number(output.value),
    })),
    type: "transaction",
  };
}
