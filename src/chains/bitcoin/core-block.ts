// A block as Bitcoin Core's getblock answers it with verbosity 3 (src/chains/rpc/bitcoin.ts), checked and read as
// every Bitcoin source reads a transaction (transaction.ts). Hashes stay as Bitcoin writes them (64 hex digits,
// lower case); an output's address is Core's `address` (or the single one of `addresses`, before Core 22), checked
// for the chain's network; a pay-to-pubkey output's is its key's P2PKH address (p2pk.ts). A field missing or of the wrong type
// fails the block with where it is: the follower retries, and says why.
import type { BitcoinNetwork } from "../address/index.ts";
import { type CoreScriptPubKey, satoshis } from "../rpc/bitcoin.ts";
import { p2pkAddress } from "./p2pk.ts";
import { type BtcPartRead, type BtcTransactionRead, bitcoinPart } from "./transaction.ts";

const HASH = /^[0-9a-f]{64}$/;

export interface CoreBlockRead {
  number: bigint;
  hash: string;
  /** null for the genesis block */
  parentHash: string | null;
  time: Date;
  transactions: BtcTransactionRead[];
}

class BlockShapeError extends Error {}

const object = (value: unknown, where: string): Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new BlockShapeError(`${where} is not an object`);
  return value as Record<string, unknown>;
};
const hash = (value: unknown, where: string): string => {
  if (typeof value !== "string" || !HASH.test(value))
    throw new BlockShapeError(`${where} is not a 64-hex hash`);
  return value;
};
const whole = (value: unknown, where: string): number => {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    throw new BlockShapeError(`${where} is not a whole number`);
  return value;
};
const list = (value: unknown, where: string): unknown[] => {
  if (!Array.isArray(value)) throw new BlockShapeError(`${where} is not a list`);
  return value;
};
const amount = (value: unknown, where: string): bigint => {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new BlockShapeError(`${where} is not an amount of BTC`);
  return satoshis(value);
};

function part(value: unknown, key: unknown, where: string, network: BitcoinNetwork): BtcPartRead {
  const script = object(key, `${where}.scriptPubKey`) as Partial<CoreScriptPubKey>;
  const address =
    typeof script.address === "string"
      ? script.address
      : Array.isArray(script.addresses) && script.addresses.length === 1
        ? script.addresses[0]
        : script.type === "pubkey" && typeof script.hex === "string"
          ? p2pkAddress(script.hex, network)
          : null;
  return bitcoinPart(address ?? null, script.type === "nulldata", amount(value, `${where}.value`), network);
}

/** Reads one getblock answer (verbosity 3). */
export function readCoreBlock(raw: unknown, network: BitcoinNetwork): CoreBlockRead {
  const block = object(raw, "the block");
  const height = whole(block.height, "the block's height");
  const at = `block ${height}`;
  try {
    const time = new Date(whole(block.time, "time") * 1000);
    const blockHash = hash(block.hash, "hash");
    const transactions = list(block.tx, "tx").map((rawTx, t) => {
      const tx = object(rawTx, `tx[${t}]`);
      const txid = hash(tx.txid, `tx[${t}].txid`);
      const vin = list(tx.vin, `tx[${t}].vin`).map((i, k) => object(i, `tx[${t}].vin[${k}]`));
      const coinbase = vin.some((i) => typeof i.coinbase === "string");
      const inputs = coinbase
        ? []
        : vin.map((input, k) => {
            const where = `tx[${t}].vin[${k}].prevout`;
            if (input.prevout === undefined)
              throw new BlockShapeError(
                `${where} is missing: ask getblock with verbosity 3 (Bitcoin Core 23 or later)`,
              );
            const prevout = object(input.prevout, where);
            return part(prevout.value, prevout.scriptPubKey, where, network);
          });
      const outputs = list(tx.vout, `tx[${t}].vout`).map((o, k) => {
        const output = object(o, `tx[${t}].vout[${k}]`);
        return part(output.value, output.scriptPubKey, `tx[${t}].vout[${k}]`, network);
      });
      return {
        hash: txid,
        block: String(height),
        time: time.toISOString(),
        coinbase,
        inputs,
        outputs,
      } satisfies BtcTransactionRead;
    });
    return {
      number: BigInt(height),
      hash: blockHash,
      parentHash:
        block.previousblockhash === undefined ? null : hash(block.previousblockhash, "previousblockhash"),
      time,
      transactions,
    };
  } catch (error) {
    if (error instanceof BlockShapeError) throw new Error(`Bitcoin Core's ${at}: ${error.message}`);
    throw error;
  }
}
