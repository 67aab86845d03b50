// A deterministic on-chain history of one address, and the rows the store must hold for it. The replay server
// renders it in Blockscout API v2 and Etherscan-compatible shapes; tests compare the store with `expectedRows`.
import crypto from "node:crypto";

export interface Token {
  address: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  type: "ERC-20" | "ERC-721";
}

export interface HistoryTx {
  hash: string;
  /** null: pending (in the mempool, not yet in a block) */
  block: number | null;
  /** unix seconds */
  time: number;
  position: number;
  nonce: number;
  from: string;
  to: string | null;
  created: string | null;
  value: bigint;
  status: "ok" | "error" | "pending";
  toIsContract: boolean;
  input: string;
}

export interface HistoryTokenTransfer {
  txHash: string;
  block: number;
  time: number;
  logIndex: number;
  from: string;
  to: string;
  token: Token;
  /** amount (ERC-20) or token id (ERC-721) */
  value: bigint;
}

export interface History {
  address: string;
  /** newest first, pending ones on top */
  txs: HistoryTx[];
  /** newest first */
  transfers: HistoryTokenTransfer[];
}

const hex = (seed: string, bytes: number) =>
  `0x${crypto
    .createHash("sha256")
    .update(seed)
    .digest("hex")
    .repeat(2)
    .slice(0, bytes * 2)}`;
export const addressOf = (seed: string) => hex(`address:${seed}`, 20);

export const USDC: Token = {
  address: addressOf("usdc"),
  symbol: "USDC",
  name: "USD Coin",
  decimals: 6,
  type: "ERC-20",
};
export const DAI: Token = {
  address: addressOf("dai"),
  symbol: "DAI",
  name: "Dai Stablecoin",
  decimals: 18,
  type: "ERC-20",
};
/** A token whose metadata the explorer does not know. */
export const ANON: Token = {
  address: addressOf("anon"),
  symbol: null,
  name: null,
  decimals: null,
  type: "ERC-20",
};
export const NFT: Token = {
  address: addressOf("nft"),
  symbol: "PUNK",
  name: "Punks",
  decimals: null,
  type: "ERC-721",
};

export interface HistoryShape {
  seed?: string;
  txs: number;
  tokenTransfers: number;
  pending?: number;
  /** newest block and its time */
  headBlock?: number;
  headTime?: number;
}

export const HEAD_TIME = Date.UTC(2025, 0, 20, 12, 0, 0) / 1000;
const BLOCK_SECONDS = 12;

/**
 * Every 7th transaction failed, every 5th moves no value, the 13th creates a contract, every 9th pair shares a
 * block; token transfers are USDC, DAI and an unknown token, with one NFT transfer among them.
 */
export function makeHistory(shape: HistoryShape): History {
  const seed = shape.seed ?? "h";
  const address = addressOf(`${seed}:subject`);
  const headBlock = shape.headBlock ?? 21_500_000;
  const headTime = shape.headTime ?? HEAD_TIME;
  const txs: HistoryTx[] = [];
  for (let i = 0; i < (shape.pending ?? 0); i += 1) {
    txs.push({
      hash: hex(`${seed}:pending:${i}`, 32),
      block: null,
      time: 0,
      position: 0,
      nonce: 1000 + i,
      from: address,
      to: addressOf(`${seed}:peer:p${i}`),
      created: null,
      value: 10n ** 15n,
      status: "pending",
      toIsContract: false,
      input: "0x",
    });
  }
  let block = headBlock;
  for (let i = 0; i < shape.txs; i += 1) {
    if (i % 9 !== 1) block -= 3 + (i % 4);
    const outgoing = i % 3 !== 0;
    const peer = addressOf(`${seed}:peer:${i % 17}`);
    const creates = i === 12;
    txs.push({
      hash: hex(`${seed}:tx:${i}`, 32),
      block,
      time: headTime - (headBlock - block) * BLOCK_SECONDS,
      position: i % 9 === 1 ? 1 : 0,
      nonce: i,
      from: outgoing || creates ? address : peer,
      to: creates ? null : outgoing ? peer : address,
      created: creates ? addressOf(`${seed}:created`) : null,
      value: i % 5 === 4 ? 0n : 10n ** 18n * BigInt(i + 1) + BigInt(i) * 123_456_789n,
      status: i % 7 === 6 ? "error" : "ok",
      toIsContract: outgoing && i % 17 === 4,
      input: i % 5 === 4 ? "0xa9059cbb" : "0x",
    });
  }
  const transfers: HistoryTokenTransfer[] = [];
  block = headBlock - 1;
  for (let i = 0; i < shape.tokenTransfers; i += 1) {
    if (i % 6 !== 2) block -= 4 + (i % 3);
    const token = i === 5 ? NFT : [USDC, DAI, ANON][i % 3]!;
    const incoming = i % 2 === 0;
    const peer = addressOf(`${seed}:tpeer:${i % 11}`);
    transfers.push({
      txHash: hex(`${seed}:ttx:${i}`, 32),
      block,
      time: headTime - (headBlock - block) * BLOCK_SECONDS,
      logIndex: i % 6 === 2 ? 7 : 3 + (i % 5) * 20,
      from: incoming ? peer : address,
      to: incoming ? address : peer,
      token,
      value:
        token.type === "ERC-721" ? 4242n : 10n ** BigInt(token.decimals ?? 18) * BigInt(i + 1) + BigInt(i),
    });
  }
  const desc = (a: [number, number], b: [number, number]) => b[0] - a[0] || b[1] - a[1];
  const mined = txs.filter((t) => t.block !== null);
  mined.sort((a, b) => desc([a.block!, a.position], [b.block!, b.position]));
  transfers.sort((a, b) => desc([a.block, a.logIndex], [b.block, b.logIndex]));
  return { address, txs: [...txs.filter((t) => t.block === null), ...mined], transfers };
}

export interface ExpectedRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_time: string;
  from_address: string;
  to_address: string;
  token: string;
  value: string;
}

/** The rows the store must hold for the history (within an optional window), ordered by key. */
export function expectedRows(history: History, window: { from?: Date; to?: Date } = {}): ExpectedRow[] {
  const inWindow = (time: number) =>
    (!window.from || time * 1000 >= window.from.getTime()) &&
    (!window.to || time * 1000 <= window.to.getTime());
  const rows: ExpectedRow[] = [];
  for (const tx of history.txs) {
    if (tx.status !== "ok" || tx.value === 0n || tx.block === null || !inWindow(tx.time)) continue;
    rows.push({
      tx_hash: tx.hash,
      log_index: -1,
      block_number: String(tx.block),
      block_time: new Date(tx.time * 1000).toISOString(),
      from_address: tx.from,
      to_address: (tx.to ?? tx.created)!,
      token: "native",
      value: tx.value.toString(),
    });
  }
  for (const t of history.transfers) {
    if (t.token.type !== "ERC-20" || !inWindow(t.time)) continue;
    rows.push({
      tx_hash: t.txHash,
      log_index: t.logIndex,
      block_number: String(t.block),
      block_time: new Date(t.time * 1000).toISOString(),
      from_address: t.from,
      to_address: t.to,
      token: t.token.address,
      value: t.value.toString(),
    });
  }
  return rows.sort(byKey);
}

export function byKey(a: { tx_hash: string; log_index: number }, b: { tx_hash: string; log_index: number }) {
  return a.tx_hash < b.tx_hash ? -1 : a.tx_hash > b.tx_hash ? 1 : a.log_index - b.log_index;
}
