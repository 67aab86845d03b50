// One Bitcoin transaction as every source reads it (a bitcoin-etl export, an Esplora history, a node's block): its
// parts' addresses checked for the chain's network, its CoinJoin fingerprint, the transfers it projects to
// (project.ts), the CoinJoin node's mixer label, and the evidence the address clusters take (src/clusters).

import { type CoinJoinVerdict, detectCoinJoin, type ScriptKind, type UtxoTx } from "../../risk/index.ts";
import { type BitcoinNetwork, parseBitcoinAddress } from "../address/index.ts";
import { type BtcPart, type BtcTransaction, type ProjectedTransfer, projectTransaction } from "./project.ts";

export type BtcPartRead = BtcPart & { script: ScriptKind };

export interface BtcTransactionRead extends BtcTransaction {
  inputs: BtcPartRead[];
  outputs: BtcPartRead[];
}

type AddressRead = { address: string | null; script: ScriptKind };

/**
 * Addresses read lately, by network: a coin's address is read again when the coin is spent, often a few
 * transactions later, and its checksum was the reader's largest cost (a decode takes 3 to 9 µs here). Two
 * generations of plain maps: the newer fills up to GENERATION addresses and becomes the older, which is dropped at
 * the next turn; a hit in the older one moves to the newer. Reading the addresses of 200,000 generated transactions
 * took 3.4 s of CPU without a cache, 3.3 s with lru-cache (its bookkeeping ate what its hits saved) and 2.1 s with
 * these maps. An address not of the network is kept too, as null.
 */
const GENERATION = 100_000;
const recent = new Map<
  BitcoinNetwork,
  { newer: Map<string, AddressRead>; older: Map<string, AddressRead> }
>();

function remember(
  reads: { newer: Map<string, AddressRead>; older: Map<string, AddressRead> },
  address: string,
  read: AddressRead,
): void {
  reads.newer.set(address, read);
  if (reads.newer.size >= GENERATION) {
    reads.older = reads.newer;
    reads.newer = new Map();
  }
}

function readAddress(address: string, network: BitcoinNetwork): AddressRead {
  let reads = recent.get(network);
  if (!reads) {
    reads = { newer: new Map(), older: new Map() };
    recent.set(network, reads);
  }
  const known = reads.newer.get(address);
  if (known) return known;
  const older = reads.older.get(address);
  if (older) {
    remember(reads, address, older);
    return older;
  }
  const parsed = parseBitcoinAddress(address, network);
  const read: AddressRead =
    "error" in parsed
      ? { address: null, script: "other" }
      : { address: parsed.address.address, script: parsed.address.type };
  remember(reads, address, read);
  return read;
}

/**
 * A part's single address of the chain's network, or null (multisig, non-standard, OP_RETURN, another network), and
 * its script kind for the CoinJoin fingerprints (the address's type).
 */
export function bitcoinPart(
  address: string | null | undefined,
  opReturn: boolean,
  value: bigint,
  network: BitcoinNetwork,
): BtcPartRead {
  const fallback: ScriptKind = opReturn ? "op_return" : "other";
  if (typeof address !== "string") return { address: null, script: fallback, value };
  const read = readAddress(address, network);
  return read.address === null
    ? { address: null, script: fallback, value }
    : { address: read.address, script: read.script, value };
}

export interface BitcoinTxProjection {
  transfers: ProjectedTransfer[];
  /** inputs and outputs without a single address of the chain */
  withoutAddress: number;
  coinbase: boolean;
  coinjoin: CoinJoinVerdict | undefined;
  /** the CoinJoin node (`coinjoin:<txid>`) and its mixer label, when the transaction is a mix */
  mixer: { address: string; label: string } | undefined;
  /** projected through `tx:<txid>` for its size */
  large: boolean;
  /** what the address clusters read of it (a transaction with inputs) */
  utxo: UtxoTx | undefined;
}

export function projectBitcoinTransaction(tx: BtcTransactionRead): BitcoinTxProjection {
  const coinbase = tx.coinbase || tx.inputs.length === 0;
  const utxo: UtxoTx | undefined = coinbase
    ? undefined
    : { txid: tx.hash, inputs: tx.inputs, outputs: tx.outputs };
  const coinjoin = utxo ? detectCoinJoin(utxo) : undefined;
  // Read once: the address clusters take this verdict instead of reading the fingerprints again.
  if (utxo) utxo.fingerprint = coinjoin ?? null;
  const projected = projectTransaction(tx, coinjoin);
  const mixed = projected.through?.startsWith("coinjoin:") && coinjoin;
  return {
    transfers: projected.transfers,
    withoutAddress: projected.withoutAddress,
    coinbase,
    coinjoin,
    mixer:
      mixed && projected.through
        ? {
            address: projected.through,
            label: `CoinJoin (${coinjoin.kind}, ${coinjoin.confidence} confidence): ${coinjoin.reason}`,
          }
        : undefined,
    large: projected.through !== undefined && !mixed,
    utxo,
  };
}
