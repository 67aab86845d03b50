// Token issuers' freezes read by the indexer: Tether's USDT contract emits AddedBlackList(address) when it freezes an
// address's USDT and RemovedBlackList(address) when it lets it go. The indexer reads these events of the contracts
// configured for a chain (Tron mainnet: USDT, TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t) and hands them, in the batch's own
// transaction, to an IssuerFreezeSink; the labels they become are written by src/ingest (the only room that may
// write the `labels` table), which passes its sink in through the follower's hooks.
import type { Kysely } from "kysely";
import type { DB } from "../../schema.ts";
import { hexToBigInt, hexToNumber, type RpcLog } from "../rpc/evm.ts";
import { InconsistentRangeError } from "./fetch-range.ts";

/** keccak256("AddedBlackList(address)") */
export const ADDED_BLACKLIST_TOPIC = "0x42e160154868087d6bfdc0ca23d96a1c1cfa32f1b72ba9ba27b69b98a0d819dc";
/** keccak256("RemovedBlackList(address)") */
export const REMOVED_BLACKLIST_TOPIC = "0xd7e9ec6e6ecd65492dce6bf513cd6867560d49544421d0783ddf06e76c24470c";
export const FREEZE_TOPICS: readonly string[] = [ADDED_BLACKLIST_TOPIC, REMOVED_BLACKLIST_TOPIC];

/** USDT on Tron mainnet (TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t), in the stored form. */
export const TRON_USDT = "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c";

export interface IssuerFreezeEvent {
  chainId: number;
  /** The frozen (or released) address, in the stored form. */
  address: string;
  /** The contract that emitted the event: the token whose issuer froze the address. */
  token: string;
  action: "added" | "removed";
  txHash: string;
  blockNumber: bigint;
  logIndex: number;
  blockTime: Date;
}

/**
 * Where the indexer hands issuer freezes, inside the transaction that stores their batch (so a freeze is recorded
 * exactly once, with the checkpoint), and the unwinding of a reorg, inside the unwind's transaction.
 */
export interface IssuerFreezeSink {
  recorded(trx: Kysely<DB>, chainId: number, events: readonly IssuerFreezeEvent[]): Promise<void>;
  /** Everything above `aboveBlock` was unwound. */
  unwound(trx: Kysely<DB>, chainId: number, aboveBlock: bigint): Promise<void>;
}

const ADDRESS_WORD = /^0x0{24}([0-9a-f]{40})$/;

/**
 * The events of freeze logs, in block and log order. Tether's TRC-20 declares `_user` unindexed (it is the data),
 * some copies index it (a second topic): both are read; a log that carries neither as one address word is skipped.
 */
export function decodeIssuerFreezes(
  chainId: number,
  logs: readonly RpcLog[],
  timeOf: ReadonlyMap<bigint, Date>,
): IssuerFreezeEvent[] {
  const events: IssuerFreezeEvent[] = [];
  for (const log of logs) {
    const topic0 = log.topics[0]?.toLowerCase();
    if (topic0 !== ADDED_BLACKLIST_TOPIC && topic0 !== REMOVED_BLACKLIST_TOPIC) continue;
    const word = log.topics.length === 2 ? (log.topics[1] as string).toLowerCase() : log.data.toLowerCase();
    const match = log.topics.length <= 2 ? ADDRESS_WORD.exec(word) : null;
    if (!match) continue;
    const blockNumber = hexToBigInt(log.blockNumber);
    const blockTime = timeOf.get(blockNumber);
    if (!blockTime)
      throw new InconsistentRangeError(`a freeze log of block ${blockNumber} is outside the range`);
    events.push({
      chainId,
      address: `0x${match[1]}`,
      token: log.address.toLowerCase(),
      action: topic0 === ADDED_BLACKLIST_TOPIC ? "added" : "removed",
      txHash: log.transactionHash.toLowerCase(),
      blockNumber,
      logIndex: hexToNumber(log.logIndex),
      blockTime,
    });
  }
  return events.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}
