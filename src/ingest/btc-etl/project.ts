// A Bitcoin transaction as the store's transfers: value-proportional between its inputs and its outputs. Each
// input pays each output the share of the output its value was of all the inputs' value:
//
//   transfer(input i -> output j) = value_i × value_j / (sum of the inputs' values), in satoshis, rounded down
//
// so each output receives from every input in proportion, and each input's payments add up to its value less its
// share of the fee (the rounding loses at most a satoshi per pair). This is the address graph GraphSense builds,
// and what lets the risk engine trace exposure through a transaction by value. A pair paying an address to itself
// (change back to an input's address) is not a transfer. An input or output that names no single address (a bare
// multisig, an OP_RETURN, a non-standard script, or an address not of the chain's network) takes part in the sums
// but in no transfer, and is counted. A coinbase transaction has no inputs: new coins are not a transfer from
// anyone, and are counted. A transaction of more than MAX_PAIRS pairs is not projected (counted): a transfer per
// pair of a 300-by-300 round would be 90,000 rows, and a CoinJoin's value is not one participant's to follow.
import type { StagedTransfer } from "../etl/rows.ts";

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
  transfers: StagedTransfer[];
  /** inputs and outputs without a single address of the chain */
  withoutAddress: number;
  /** more than MAX_PAIRS pairs: not projected */
  tooLarge: boolean;
}

export function projectTransaction(tx: BtcTransaction): Projection {
  const withoutAddress = [...tx.inputs, ...tx.outputs].filter((p) => p.address === null).length;
  if (tx.coinbase || tx.inputs.length === 0) return { transfers: [], withoutAddress, tooLarge: false };
  if (tx.inputs.length * tx.outputs.length > MAX_PAIRS)
    return { transfers: [], withoutAddress, tooLarge: true };
  const total = tx.inputs.reduce((n, i) => n + i.value, 0n);
  const transfers: StagedTransfer[] = [];
  if (total === 0n) return { transfers, withoutAddress, tooLarge: false };
  tx.inputs.forEach((input, i) => {
    if (input.address === null) return;
    tx.outputs.forEach((output, j) => {
      if (output.address === null || output.address === input.address) return;
      const value = (input.value * output.value) / total;
      if (value === 0n) return;
      transfers.push({
        txHash: tx.hash,
        // One row per pair, in the transaction's input and output order.
        logIndex: i * tx.outputs.length + j,
        block: tx.block,
        time: tx.time,
        from: input.address as string,
        to: output.address as string,
        token: "native",
        value: value.toString(),
      });
    });
  });
  return { transfers, withoutAddress, tooLarge: false };
}
