// The JSON-RPC shapes of EVM blocks, transactions, receipts and logs, as far as the service reads them, and the
// hex helpers to turn them into numbers. Nodes differ in the fields they add; only these are relied upon.

export type Hex = `0x${string}`;

export interface RpcTransaction {
  hash: string;
  from: string;
  /** null for a contract creation */
  to: string | null;
  value: string;
  input: string;
  transactionIndex: string;
}

export interface RpcBlock<T = RpcTransaction> {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactions: T[];
}

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

export interface RpcReceipt {
  transactionHash: string;
  blockHash: string;
  blockNumber: string;
  /** "0x1" success, "0x0" failure; absent before Byzantium */
  status?: string;
  contractAddress: string | null;
  gasUsed: string;
  logs: RpcLog[];
}

export const toHex = (n: bigint | number): Hex => `0x${n.toString(16)}`;

/** A quantity ("0x1a") as a bigint; "0x" counts as zero (some nodes send it for empty values). */
export function hexToBigInt(value: string): bigint {
  return value === "0x" ? 0n : BigInt(value);
}

export function hexToNumber(value: string): number {
  return Number(hexToBigInt(value));
}
