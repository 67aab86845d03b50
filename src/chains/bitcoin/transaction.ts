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
  const parsed = parseBitcoinAddress(address, network);
  return "error" in parsed
    ? { address: null, script: fallback, value }
    : { address: parsed.address.address, script: parsed.address.type, value };
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
