// A Bitcoin transaction as the store's transfers: value-proportional between its inputs and its outputs. Each
// input pays each output the share of the output its value was of all the inputs' value:
//
//   transfer(input i -> output j) = value_i × value_j / (sum of the inputs' values), in satoshis, rounded down
//
// so each output receives from every input in proportion, and each input's payments add up to its value less its
// share of the fee (the rounding loses at most a satoshi per pair). This is the address graph GraphSense builds,
// and what lets the risk engine trace exposure through a transaction by value. The inputs of one address are one
// payer and the outputs to one address one payee: a transaction spending four coins of an address is one payment
// of their sum, not four (four near-threshold rows would read as structuring), so each side is summed by address
// first, the row keeping the place of the address's first input and first output. A pair paying an address to
// itself (change back to an input's address) is not a transfer. An input or output that names no single address (a bare
// multisig, an OP_RETURN, a non-standard script, or an address not of the chain's network) takes part in the sums
// but in no transfer, and is counted. A coinbase transaction has no inputs: new coins are not a transfer from
// anyone, and are counted.
//
// Two kinds of transaction go through a node of their own instead, inputs paying it (each its value less its share
// of the fee) and it paying the outputs, so that value is followed through them with one more hop and never a
// transfer per pair:
// - a CoinJoin (src/risk's fingerprints: Whirlpool, WabiSabi, Wasabi 1, JoinMarket) goes through `coinjoin:<txid>`,
//   which the import labels a mixer: a participant is not paid by each other participant, it took part in a mix,
//   and its exposure reads as mixing;
// - any other transaction of more than MAX_PAIRS input-output pairs (a consolidation into a batch payout) goes
//   through `tx:<txid>`, unlabelled: 90,000 rows for a 300-by-300 transaction would be the store's largest cost.
import type { CoinJoinVerdict } from "../../risk/index.ts";

/** A transfer as the projection makes it: the block number and the time as text, the value in satoshis. */
export interface ProjectedTransfer {
  txHash: string;
  /** the pair's place in the transaction (input × outputs + output), or the hub's leg */
  logIndex: number;
  block: string;
  time: string;
  from: string;
  to: string;
  token: "native";
  value: string;
}

export const MAX_PAIRS = 10_000;

export interface BtcPart {
  /** the stored address, or null when the part names no single address of the chain */
  address: string | null;
  value: bigint;
}

export interface BtcTransaction {
  hash: string;
  block: string;
  time: string;
  coinbase: boolean;
  inputs: BtcPart[];
  outputs: BtcPart[];
}

export interface Projection {
  transfers: ProjectedTransfer[];
  /** inputs and outputs without a single address of the chain */
  withoutAddress: number;
  /** the node the transaction went through (`coinjoin:<txid>`, `tx:<txid>`), when it did */
  through?: string;
}

/** The parts with an address, summed by address, each at the place of its first part, in that order. */
function byAddress(parts: readonly BtcPart[]): { address: string; value: bigint; index: number }[] {
  const summed = new Map<string, { address: string; value: bigint; index: number }>();
  parts.forEach((part, index) => {
    if (part.address === null) return;
    const seen = summed.get(part.address);
    if (seen) seen.value += part.value;
    else summed.set(part.address, { address: part.address, value: part.value, index });
  });
  return [...summed.values()];
}

/** Inputs pay `hub` their value less their share of the fee (summed by address); `hub` pays each output's address. */
function throughHub(tx: BtcTransaction, hub: string, total: bigint): ProjectedTransfer[] {
  const paid = tx.outputs.reduce((n, o) => n + o.value, 0n);
  const row = (logIndex: number, from: string, to: string, value: bigint): ProjectedTransfer => ({
    txHash: tx.hash,
    logIndex,
    block: tx.block,
    time: tx.time,
    from,
    to,
    token: "native",
    value: value.toString(),
  });
  const transfers: ProjectedTransfer[] = [];
  for (const input of byAddress(tx.inputs)) {
    const value = total === 0n ? 0n : (input.value * paid) / total;
    if (value > 0n) transfers.push(row(input.index, input.address, hub, value));
  }
  for (const output of byAddress(tx.outputs)) {
    if (output.value > 0n)
      transfers.push(row(tx.inputs.length + output.index, hub, output.address, output.value));
  }
  return transfers;
}

/** `coinjoin`: the fingerprint the transaction matched, if any (a Stonewall or a tx0 is projected as any spend). */
export function projectTransaction(tx: BtcTransaction, coinjoin?: CoinJoinVerdict): Projection {
  const withoutAddress = [...tx.inputs, ...tx.outputs].filter((p) => p.address === null).length;
  if (tx.coinbase || tx.inputs.length === 0) return { transfers: [], withoutAddress };
  const total = tx.inputs.reduce((n, i) => n + i.value, 0n);
  const mix = coinjoin !== undefined && coinjoin.kind !== "stonewall" && coinjoin.kind !== "whirlpool-tx0";
  if (mix || tx.inputs.length * tx.outputs.length > MAX_PAIRS) {
    const through = `${mix ? "coinjoin" : "tx"}:${tx.hash}`;
    return { transfers: throughHub(tx, through, total), withoutAddress, through };
  }
  const transfers: ProjectedTransfer[] = [];
  if (total === 0n) return { transfers, withoutAddress };
  const outputs = byAddress(tx.outputs);
  for (const input of byAddress(tx.inputs)) {
    for (const output of outputs) {
      if (output.address === input.address) continue;
      const value = (input.value * output.value) / total;
      if (value === 0n) continue;
      transfers.push({
        txHash: tx.hash,
        // One row per pair of addresses, at the place of the address's first input and first output.
        logIndex: input.index * tx.outputs.length + output.index,
        block: tx.block,
        time: tx.time,
        from: input.address,
        to: output.address,
        token: "native",
        value: value.toString(),
      });
    }
  }
  return { transfers, withoutAddress };
}
