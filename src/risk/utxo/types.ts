// A Bitcoin transaction as the UTXO part of the risk core reads it: its inputs (the outputs they spend, with the
// address and value those carried) and its outputs, values in satoshis. An input or output without an address
// (a bare multisig, an OP_RETURN, a non-standard script) has `address` null: it takes part in the shape of the
// transaction, never in a cluster.

/** The output script kinds that matter to the fingerprints (anything else is "other"). */
export type ScriptKind = "p2pkh" | "p2sh" | "p2wpkh" | "p2wsh" | "p2tr" | "op_return" | "other";

export interface UtxoPart {
  address: string | null;
  /** satoshis */
  value: bigint;
  script: ScriptKind;
}

export interface UtxoTx {
  txid: string;
  inputs: readonly UtxoPart[];
  outputs: readonly UtxoPart[];
  /**
   * The CoinJoin fingerprint already read of it (detectCoinJoin, no service known; null: none), when the caller
   * has it: the Clusterer then reads it again only where a service's input changes the answer.
   */
  fingerprint?: CoinJoinVerdict | null;
}

/** The CoinJoin implementations the detectors tell apart, and Stonewall's two-party look (a veto, not a mix). */
export type CoinJoinKind =
  | "wasabi-1"
  | "wabisabi"
  | "whirlpool"
  | "whirlpool-tx0"
  | "joinmarket"
  | "stonewall";

export interface CoinJoinVerdict {
  kind: CoinJoinKind;
  /** how sure the fingerprint is: a published shape matched exactly (high), or most of it (medium) */
  confidence: "high" | "medium";
  /** what matched, in words a person can check against the transaction */
  reason: string;
}
