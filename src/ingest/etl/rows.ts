// Turns one record of each ethereum-etl file into what the import stages, checking every field it uses.
//
// transactions: a successful transaction (receipt_status not 0) that moved value (value > 0) is one native
// transfer with log_index -1. Zero-value transactions are skipped: they move no value (a token transfer they
// caused is in token_transfers.csv). A contract creation's value goes to receipt_contract_address; a creation
// without it can't be placed and is skipped (counted). Each row's block time is kept for token transfers, and a
// receipt_contract_address marks that address as a contract.
// token_transfers: every row is one transfer, zero-value ones included (they are real Transfer events, and
// address-poisoning patterns are made of them).
// logs: every row is checked; read.ts keeps only the transactions that emitted a bridge event (and their token
// Transfer logs, the evidence an OFT leg needs), for src/chains' bridge decoder.
// Tron-kind chains (tronetl's files, docs/tron-etl.md): addresses and hashes are read as the chain writes them
// (fields.ts), and a transaction's `status` (tronetl's contract result) other than SUCCESS is a failed one, as
// receipt_status 0 is on EVM chains: a reverted call moved no TRX.
import type { ChainKind } from "../../chains/address/index.ts";
import type { ColumnIndex } from "./columns.ts";
import * as f from "./fields.ts";

/** A transfer as staged: numbers as decimal text, time as ISO text or undefined until resolved by block. */
export interface StagedTransfer {
  txHash: string;
  logIndex: number;
  block: string;
  time: string | undefined;
  from: string;
  to: string;
  /** 'native' or the token contract address */
  token: string;
  value: string;
}

export type TransactionSkip = "failed" | "zero_value" | "no_recipient";

export interface TransactionRead {
  block: string;
  time: string | undefined;
  transfer: StagedTransfer | undefined;
  skipped: TransactionSkip | undefined;
  /** receipt_contract_address of a successful transaction */
  contract: string | undefined;
}

export interface BlockRead {
  number: string;
  hash: string;
  parentHash: string | null;
  time: string;
}

export interface TokenRead {
  address: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

/** ethereum-etl repeats a block's timestamp on each of its rows: converting it once per block is enough. */
function timestampCache() {
  let lastRaw = "";
  let lastIso = "";
  return (column: string, raw: string): string => {
    if (raw !== lastRaw) {
      lastIso = f.timestamp(column, raw);
      lastRaw = raw;
    }
    return lastIso;
  };
}

/** tronetl's `status`: the contract result; empty (blocks before results were recorded) counts as success. */
function tronFailed(c: ColumnIndex<"transactions">, fields: string[]): boolean {
  const result = c.status >= 0 ? (fields[c.status] as string).trim().toUpperCase() : "";
  return result !== "" && result !== "SUCCESS";
}

export function transactionReader(c: ColumnIndex<"transactions">, kind: ChainKind = "evm") {
  const time = timestampCache();
  const k = f.fieldsOfKind(kind);
  return (fields: string[]): TransactionRead => {
    const hash = k.hash("hash", fields[c.hash] as string);
    const block = f.bigintText("block_number", fields[c.block_number] as string);
    const rawTime = c.block_timestamp >= 0 ? (fields[c.block_timestamp] as string) : "";
    const at = rawTime === "" ? undefined : time("block_timestamp", rawTime);
    if (c.transaction_index >= 0) f.int32("transaction_index", fields[c.transaction_index] as string);
    const from = k.address("from_address", fields[c.from_address] as string);
    let to = k.optionalAddress("to_address", fields[c.to_address] as string);
    const value = f.amount("value", fields[c.value] as string);
    let status = c.receipt_status >= 0 ? (fields[c.receipt_status] as string) : "";
    if (status !== "" && status !== "0" && status !== "1") {
      throw new f.FieldError(`receipt_status ${JSON.stringify(status)} is not 0, 1 or empty`);
    }
    if (kind === "tron" && tronFailed(c, fields)) status = "0";
    const created =
      c.receipt_contract_address >= 0
        ? k.optionalAddress("receipt_contract_address", fields[c.receipt_contract_address] as string)
        : undefined;
    const read: TransactionRead = {
      block,
      time: at,
      transfer: undefined,
      skipped: undefined,
      contract: status === "0" ? undefined : created,
    };
    if (status === "0") read.skipped = "failed";
    else if (f.isZeroAmount(value)) read.skipped = "zero_value";
    else {
      to ??= created;
      if (to === undefined) read.skipped = "no_recipient";
      else read.transfer = { txHash: hash, logIndex: -1, block, time: at, from, to, token: "native", value };
    }
    return read;
  };
}

export function tokenTransferReader(c: ColumnIndex<"token_transfers">, kind: ChainKind = "evm") {
  const k = f.fieldsOfKind(kind);
  return (fields: string[]): StagedTransfer => ({
    token: k.address("token_address", fields[c.token_address] as string),
    from: k.address("from_address", fields[c.from_address] as string),
    to: k.address("to_address", fields[c.to_address] as string),
    value: f.amount("value", fields[c.value] as string),
    txHash: k.hash("transaction_hash", fields[c.transaction_hash] as string),
    logIndex: f.int32("log_index", fields[c.log_index] as string),
    block: f.bigintText("block_number", fields[c.block_number] as string),
    time: undefined,
  });
}

export function blockReader(c: ColumnIndex<"blocks">, kind: ChainKind = "evm") {
  const k = f.fieldsOfKind(kind);
  return (fields: string[]): BlockRead => {
    const parent = c.parent_hash >= 0 ? (fields[c.parent_hash] as string) : "";
    return {
      number: f.bigintText("number", fields[c.number] as string),
      hash: k.hash("hash", fields[c.hash] as string),
      parentHash: parent === "" ? null : k.hash("parent_hash", parent),
      time: f.timestamp("timestamp", fields[c.timestamp] as string),
    };
  };
}

export function tokenReader(c: ColumnIndex<"tokens">, kind: ChainKind = "evm") {
  const k = f.fieldsOfKind(kind);
  return (fields: string[]): TokenRead => ({
    address: k.address("address", fields[c.address] as string),
    symbol: c.symbol >= 0 ? f.label(fields[c.symbol] as string) : null,
    name: c.name >= 0 ? f.label(fields[c.name] as string) : null,
    decimals: c.decimals >= 0 ? f.decimals(fields[c.decimals] as string) : null,
  });
}

export function contractReader(c: ColumnIndex<"contracts">, kind: ChainKind = "evm") {
  const k = f.fieldsOfKind(kind);
  return (fields: string[]): string => k.address("address", fields[c.address] as string);
}

/** A log as ethereum-etl writes it: block and index as numbers, topics split, addresses and hex lowercase. */
export interface LogRead {
  txHash: string;
  logIndex: number;
  block: string;
  address: string;
  data: string;
  topics: string[];
}

/** ERC-20's Transfer(address indexed, address indexed, uint256): the token movements of a bridge's transaction. */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

export function logReader(c: ColumnIndex<"logs">) {
  return (fields: string[]): LogRead => {
    const data = fields[c.data] as string;
    if (!HEX_BYTES.test(data)) {
      throw new f.FieldError(
        `data ${data === "" ? "is empty" : "is not hex bytes (0x and pairs of hex digits)"}`,
      );
    }
    // Joined by commas; some exports wrap the list in brackets or quote each topic.
    const raw = (fields[c.topics] as string).replace(/[[\]"' ]/g, "");
    return {
      txHash: f.hash("transaction_hash", fields[c.transaction_hash] as string),
      logIndex: f.int32("log_index", fields[c.log_index] as string),
      block: f.bigintText("block_number", fields[c.block_number] as string),
      address: f.address("address", fields[c.address] as string),
      data: data.toLowerCase(),
      topics: raw === "" ? [] : raw.split(",").map((t) => f.hash("topics", t)),
    };
  };
}
