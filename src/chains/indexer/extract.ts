// Turns a fetched range of blocks into store rows (pure: no I/O). What counts as a transfer:
// - the native value of a successful transaction (receipt status 1, value > 0), log index -1; a contract creation
//   pays the created contract;
// - an ERC-20 `Transfer(address indexed, address indexed, uint256)` log: topic0 below, exactly 3 topics (ERC-721
//   indexes the token id as a 4th) and 32 bytes of data, with both address topics zero-padded. Zero-value token
//   transfers are kept: address poisoning is made of them.
// It also names the addresses known to hold code (log emitters, created contracts) and those that may (the
// recipients of calls with data or more than a plain transfer's gas), which the caller checks with eth_getCode.
// On Tron a transaction's `value` is TRX only for some contract types: the caller says which transactions moved
// their value as the native coin (tron-values.ts), and the others are no native transfer. The issuer-freeze logs
// become IssuerFreezeEvents (issuer-freezes.ts), the bridge logs BridgeLegs (bridge-events.ts).

import { hexToBigInt, hexToNumber } from "../rpc/evm.ts";
import type { BlockRow, TransferRow } from "../store/transfers.ts";
import { type BridgeLeg, decodeBridgeLegs } from "./bridge-events.ts";
import type { FetchedRange } from "./fetch-range.ts";
import { InconsistentRangeError } from "./fetch-range.ts";
import { decodeIssuerFreezes, type IssuerFreezeEvent } from "./issuer-freezes.ts";

export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
export const NATIVE = "native";

/** Gas of a plain value transfer to an account without code. */
const PLAIN_TRANSFER_GAS = 21_000n;
const ADDRESS_TOPIC = /^0x0{24}[0-9a-f]{40}$/;
const UINT256_DATA = /^0x[0-9a-f]{64}$/;

export interface ExtractedRange {
  blocks: BlockRow[];
  transfers: TransferRow[];
  /** Contracts whose Transfer events were stored. */
  tokens: Set<string>;
  /** Addresses that certainly hold code. */
  contracts: Set<string>;
  /** Transaction recipients that may hold code (not in `contracts`). */
  codeCandidates: Set<string>;
  /** Freezes and releases by token issuers, in block and log order. */
  issuerFreezes: IssuerFreezeEvent[];
  /** Bridge legs (bridge-events.ts), in block and log order. */
  bridgeLegs: BridgeLeg[];
  /** Bridge logs that did not decode as their protocol writes them. */
  bridgeLogsSkipped: number;
}

export interface ExtractOptions {
  /** The transactions (lowercase hashes) whose `value` is the native coin; absent: every transaction's is (EVM). */
  nativeValueOf?: ReadonlySet<string>;
}

export function extractRange(
  chainId: number,
  range: FetchedRange,
  options: ExtractOptions = {},
): ExtractedRange {
  const nativeValueOf = options.nativeValueOf;
  const blocks: BlockRow[] = [];
  const transfers: TransferRow[] = [];
  const contracts = new Set(range.logEmitters);
  const candidates = new Set<string>();
  const timeOf = new Map<bigint, Date>();

  for (const block of range.blocks) {
    timeOf.set(block.number, block.timestamp);
    blocks.push({
      chainId,
      number: block.number,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: block.timestamp,
    });
    for (const tx of block.transactions) {
      const receipt = block.receipts.get(tx.hash);
      const to = tx.to?.toLowerCase() ?? null;
      if (to === null) {
        if (receipt?.status && receipt.contractAddress) contracts.add(receipt.contractAddress);
      } else if ((tx.input && tx.input !== "0x") || (receipt?.gasUsed ?? 0n) > PLAIN_TRANSFER_GAS) {
        candidates.add(to);
      }
      const value = hexToBigInt(tx.value);
      if (value === 0n) continue;
      if (nativeValueOf && !nativeValueOf.has(tx.hash.toLowerCase())) continue;
      if (!receipt) throw new InconsistentRangeError(`no receipt for ${tx.hash}`);
      if (!receipt.status) continue;
      const recipient = to ?? receipt.contractAddress;
      if (!recipient) continue;
      transfers.push({
        chainId,
        txHash: tx.hash.toLowerCase(),
        logIndex: -1,
        blockNumber: block.number,
        blockTime: block.timestamp,
        from: tx.from.toLowerCase(),
        to: recipient,
        token: NATIVE,
        value,
      });
    }
  }

  const tokens = new Set<string>();
  for (const log of range.transferLogs) {
    if (log.topics.length !== 3) continue;
    const data = log.data.toLowerCase();
    const fromTopic = (log.topics[1] as string).toLowerCase();
    const toTopic = (log.topics[2] as string).toLowerCase();
    if (!UINT256_DATA.test(data) || !ADDRESS_TOPIC.test(fromTopic) || !ADDRESS_TOPIC.test(toTopic)) continue;
    const blockNumber = hexToBigInt(log.blockNumber);
    const blockTime = timeOf.get(blockNumber);
    if (!blockTime) throw new InconsistentRangeError(`a log of block ${blockNumber} is outside the range`);
    const token = log.address.toLowerCase();
    tokens.add(token);
    transfers.push({
      chainId,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: hexToNumber(log.logIndex),
      blockNumber,
      blockTime,
      from: `0x${fromTopic.slice(26)}`,
      to: `0x${toTopic.slice(26)}`,
      token,
      value: BigInt(data),
    });
  }

  for (const address of contracts) candidates.delete(address);
  const issuerFreezes = decodeIssuerFreezes(chainId, range.freezeLogs ?? [], timeOf);
  // An OFT's leg counts with the token movement it stands for (bridge-events.ts): the transaction's transfers.
  const transfersByTx = new Map<string, TransferRow[]>();
  if ((range.bridgeLogs ?? []).length > 0) {
    for (const t of transfers) {
      const list = transfersByTx.get(t.txHash);
      if (list) list.push(t);
      else transfersByTx.set(t.txHash, [t]);
    }
  }
  const bridges = decodeBridgeLegs(
    chainId,
    range.bridgeLogs ?? [],
    timeOf,
    (tx) => transfersByTx.get(tx) ?? [],
  );
  return {
    blocks,
    transfers,
    tokens,
    contracts,
    codeCandidates: candidates,
    issuerFreezes,
    bridgeLegs: bridges.legs,
    bridgeLogsSkipped: bridges.skipped,
  };
}
