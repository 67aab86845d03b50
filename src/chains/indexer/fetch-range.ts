// Reads a range of blocks from the node: every block with its full transactions, and what the transfers need
// from the receipts (status, created contract, gas used, logs).
//
// Preferred: eth_getBlockReceipts, one call per block, all in the same JSON-RPC batch as the blocks. Nodes without
// it (the method answers "not found"/"not supported") fall back, for good, to eth_getLogs over the range for
// Transfer events plus eth_getTransactionReceipt only for the transactions that need a status: those moving value
// and contract creations. Every answer is checked to belong to the block it was asked for (by hash): a node that
// reorganises between two calls makes the range inconsistent, and the caller fetches it again.
// Tron's /jsonrpc has no eth_getBlockReceipts: a Tron chain's fetcher starts in the fallback mode. The logs of the
// issuer-freeze contracts (issuer-freezes.ts) come from the receipts, or from a second eth_getLogs filtered by
// those contracts. Bridge events (bridge-events.ts) come from the receipts too, or from a third eth_getLogs filtered
// by their topics.

import {
  hexToBigInt,
  type RpcBlock,
  type RpcLog,
  type RpcReceipt,
  type RpcTransaction,
  toHex,
} from "../rpc/evm.ts";
import type { JsonRpcClient, RpcCall } from "../rpc/json-rpc.ts";
import { RpcCallError } from "../rpc/json-rpc.ts";
import { BRIDGE_TOPIC_LIST, isBridgeLog } from "./bridge-events.ts";
import { TRANSFER_TOPIC } from "./extract.ts";
import { FREEZE_TOPICS } from "./issuer-freezes.ts";

/** A transaction's receipt as far as the indexer reads it; logs only when fetched from receipts. */
export interface ReceiptFacts {
  status: boolean;
  contractAddress: string | null;
  gasUsed: bigint | undefined;
}

export interface FetchedBlock {
  number: bigint;
  hash: string;
  parentHash: string;
  timestamp: Date;
  transactions: RpcTransaction[];
  /** By transaction hash; in fallback mode only for the transactions that needed one. */
  receipts: Map<string, ReceiptFacts>;
}

export interface FetchedRange {
  from: bigint;
  to: bigint;
  blocks: FetchedBlock[];
  /** Logs with the Transfer topic, of successful transactions, in block and log order. */
  transferLogs: RpcLog[];
  /** Logs with an issuer-freeze topic emitted by the configured freeze contracts, of successful transactions. */
  freezeLogs?: RpcLog[];
  /** Logs with a bridge event's topic (bridge-events.ts), of successful transactions, in block and log order. */
  bridgeLogs?: RpcLog[];
  /** Addresses that emitted any log (so they hold code). */
  logEmitters: Set<string>;
  transactionCount: number;
}

export interface RangeFetcherOptions {
  /** The first mode tried: "logs-and-receipts" for nodes known to lack eth_getBlockReceipts (Tron). */
  mode?: ReceiptsMode;
  /** Contracts whose freeze events are read (lowercase). */
  freezeContracts?: readonly string[];
}

/** The node gave answers that do not fit together (a reorg under our feet, a lagging backend): fetch again. */
export class InconsistentRangeError extends Error {
  override name = "InconsistentRangeError";
}

export type ReceiptsMode = "block-receipts" | "logs-and-receipts";

export class RangeFetcher {
  mode: ReceiptsMode;
  readonly #freezeContracts: Set<string>;

  constructor(
    private readonly rpc: JsonRpcClient,
    options: RangeFetcherOptions = {},
  ) {
    this.mode = options.mode ?? "block-receipts";
    this.#freezeContracts = new Set((options.freezeContracts ?? []).map((a) => a.toLowerCase()));
  }

  #isFreeze(log: RpcLog): boolean {
    return (
      this.#freezeContracts.has(log.address.toLowerCase()) &&
      FREEZE_TOPICS.includes((log.topics[0] ?? "").toLowerCase())
    );
  }

  async fetch(from: bigint, to: bigint, signal?: AbortSignal): Promise<FetchedRange> {
    if (this.mode === "block-receipts") {
      try {
        return await this.#withBlockReceipts(from, to, signal);
      } catch (error) {
        if (
          !(error instanceof RpcCallError) ||
          error.method !== "eth_getBlockReceipts" ||
          !unsupported(error)
        ) {
          throw error;
        }
        this.mode = "logs-and-receipts";
      }
    }
    return this.#withLogs(from, to, signal);
  }

  async #withBlockReceipts(from: bigint, to: bigint, signal?: AbortSignal): Promise<FetchedRange> {
    const calls: RpcCall[] = [];
    for (let n = from; n <= to; n++) {
      calls.push({ method: "eth_getBlockByNumber", params: [toHex(n), true] });
      calls.push({ method: "eth_getBlockReceipts", params: [toHex(n)] });
    }
    const results = await this.rpc.batchResults(calls, signal);
    const blocks: FetchedBlock[] = [];
    const transferLogs: RpcLog[] = [];
    const freezeLogs: RpcLog[] = [];
    const bridgeLogs: RpcLog[] = [];
    const logEmitters = new Set<string>();
    let transactionCount = 0;
    for (let i = 0; i < results.length; i += 2) {
      const number = from + BigInt(i / 2);
      const block = checkBlock(results[i] as RpcBlock | null, number);
      const receipts = results[i + 1] as RpcReceipt[] | null;
      if (!Array.isArray(receipts) || receipts.length !== block.transactions.length) {
        throw new InconsistentRangeError(`block ${number}: receipts do not match the block's transactions`);
      }
      const byHash = new Map<string, ReceiptFacts>();
      for (const receipt of receipts) {
        if (receipt.blockHash.toLowerCase() !== block.hash.toLowerCase()) {
          throw new InconsistentRangeError(
            `block ${number}: a receipt belongs to block ${receipt.blockHash}`,
          );
        }
        byHash.set(receipt.transactionHash, receiptFacts(receipt));
        for (const log of receipt.logs) {
          logEmitters.add(log.address.toLowerCase());
          if (log.topics[0] === TRANSFER_TOPIC && !log.removed) transferLogs.push(log);
          else if (!log.removed && this.#isFreeze(log)) freezeLogs.push(log);
          else if (!log.removed && isBridgeLog(log)) bridgeLogs.push(log);
        }
      }
      transactionCount += block.transactions.length;
      blocks.push(fetchedBlock(block, byHash));
    }
    checkChained(blocks);
    return { from, to, blocks, transferLogs, freezeLogs, bridgeLogs, logEmitters, transactionCount };
  }

  async #withLogs(from: bigint, to: bigint, signal?: AbortSignal): Promise<FetchedRange> {
    const calls: RpcCall[] = [];
    for (let n = from; n <= to; n++) calls.push({ method: "eth_getBlockByNumber", params: [toHex(n), true] });
    calls.push({
      method: "eth_getLogs",
      params: [{ fromBlock: toHex(from), toBlock: toHex(to), topics: [TRANSFER_TOPIC] }],
    });
    const freezes = this.#freezeContracts.size > 0;
    if (freezes) {
      calls.push({
        method: "eth_getLogs",
        params: [
          {
            fromBlock: toHex(from),
            toBlock: toHex(to),
            address: [...this.#freezeContracts],
            topics: [[...FREEZE_TOPICS]],
          },
        ],
      });
    }
    calls.push({
      method: "eth_getLogs",
      params: [{ fromBlock: toHex(from), toBlock: toHex(to), topics: [[...BRIDGE_TOPIC_LIST]] }],
    });
    const results = await this.rpc.batchResults(calls, signal);
    const bridgeFound = (results.pop() as RpcLog[] | null) ?? [];
    const freezeFound = freezes ? ((results.pop() as RpcLog[] | null) ?? []) : [];
    const logs = (results.pop() as RpcLog[] | null) ?? [];
    const rawBlocks = results.map((b, i) => checkBlock(b as RpcBlock | null, from + BigInt(i)));
    const hashes = new Set(rawBlocks.map((b) => b.hash.toLowerCase()));
    const transferLogs: RpcLog[] = [];
    const logEmitters = new Set<string>();
    for (const log of logs) {
      if (log.removed) continue;
      if (!hashes.has(log.blockHash.toLowerCase())) {
        throw new InconsistentRangeError(
          `a log of block ${hexToBigInt(log.blockNumber)} is from another fork`,
        );
      }
      transferLogs.push(log);
      logEmitters.add(log.address.toLowerCase());
    }
    const freezeLogs: RpcLog[] = [];
    for (const log of freezeFound) {
      if (log.removed || !this.#isFreeze(log)) continue;
      if (!hashes.has(log.blockHash.toLowerCase())) {
        throw new InconsistentRangeError(
          `a freeze log of block ${hexToBigInt(log.blockNumber)} is from another fork`,
        );
      }
      freezeLogs.push(log);
      logEmitters.add(log.address.toLowerCase());
    }
    const bridgeLogs: RpcLog[] = [];
    for (const log of bridgeFound) {
      if (log.removed || !isBridgeLog(log)) continue;
      if (!hashes.has(log.blockHash.toLowerCase())) {
        throw new InconsistentRangeError(
          `a bridge log of block ${hexToBigInt(log.blockNumber)} is from another fork`,
        );
      }
      bridgeLogs.push(log);
      logEmitters.add(log.address.toLowerCase());
    }
    // Receipts only where the status matters: value moved, or a contract created.
    const needed = rawBlocks.flatMap((b) =>
      b.transactions.filter((t) => t.to === null || hexToBigInt(t.value) > 0n),
    );
    const receipts = await this.rpc.batchResults(
      needed.map((t) => ({ method: "eth_getTransactionReceipt", params: [t.hash] })),
      signal,
    );
    const facts = new Map<string, ReceiptFacts>();
    const receiptByHash = new Map(needed.map((t, i) => [t.hash, receipts[i] as RpcReceipt | null]));
    for (const [hash, receipt] of receiptByHash) {
      if (!receipt || !hashes.has(receipt.blockHash.toLowerCase())) {
        throw new InconsistentRangeError(`the receipt of ${hash} is missing or from another fork`);
      }
      facts.set(hash, receiptFacts(receipt));
    }
    const blocks = rawBlocks.map((b) => fetchedBlock(b, facts));
    checkChained(blocks);
    const transactionCount = rawBlocks.reduce((sum, b) => sum + b.transactions.length, 0);
    return { from, to, blocks, transferLogs, freezeLogs, bridgeLogs, logEmitters, transactionCount };
  }
}

function unsupported(error: RpcCallError): boolean {
  return (
    error.error.code === -32601 ||
    /not (found|supported|available|exist)|unsupported|unknown method|does not exist/i.test(
      error.error.message,
    )
  );
}

function checkBlock(block: RpcBlock | null, number: bigint): RpcBlock {
  // null: the node does not have it (yet): a backend behind a load balancer lagging the one that told the head.
  if (!block) throw new InconsistentRangeError(`block ${number} is not available on the node`);
  if (hexToBigInt(block.number) !== number)
    throw new InconsistentRangeError(`asked for block ${number}, got another`);
  return block;
}

function receiptFacts(receipt: RpcReceipt): ReceiptFacts {
  return {
    // Before Byzantium receipts carry a state root instead of a status; those transactions count as successful.
    status: receipt.status === undefined || receipt.status === null || hexToBigInt(receipt.status) === 1n,
    contractAddress: receipt.contractAddress ? receipt.contractAddress.toLowerCase() : null,
    gasUsed: receipt.gasUsed ? hexToBigInt(receipt.gasUsed) : undefined,
  };
}

function fetchedBlock(block: RpcBlock, receipts: Map<string, ReceiptFacts>): FetchedBlock {
  return {
    number: hexToBigInt(block.number),
    hash: block.hash.toLowerCase(),
    parentHash: block.parentHash.toLowerCase(),
    timestamp: new Date(Number(hexToBigInt(block.timestamp)) * 1000),
    transactions: block.transactions,
    receipts,
  };
}

function checkChained(blocks: FetchedBlock[]): void {
  for (let i = 1; i < blocks.length; i++) {
    const block = blocks[i] as FetchedBlock;
    if (block.parentHash !== (blocks[i - 1] as FetchedBlock).hash) {
      throw new InconsistentRangeError(`block ${block.number} does not extend block ${block.number - 1n}`);
    }
  }
}
