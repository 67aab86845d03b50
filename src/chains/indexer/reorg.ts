// Finding where the node's chain and the indexed one part: walking down from a block (the checkpoint), compare
// the stored block hashes with the node's, in windows that double (a shallow reorg costs one round trip, a
// replaced chain a few), and return the highest block both agree on, or undefined when they share nothing down
// to `lowest`. The node's hashes come from `nodeHashes`, which each kind of node answers its own way (an EVM
// node's eth_getBlockByNumber, Bitcoin Core's getblockhash).
import type { Kysely } from "kysely";
import { type Checkpoint, storedHashes } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";
import { type RpcBlock, toHex } from "../rpc/evm.ts";
import type { JsonRpcClient } from "../rpc/json-rpc.ts";

const FIRST_WINDOW = 16n;
const MAX_WINDOW = 1024n;

/** The node's block hashes of heights low..high, in order, lower case (undefined where it has none). */
export type NodeHashes = (low: bigint, high: bigint, signal?: AbortSignal) => Promise<(string | undefined)[]>;

/** An EVM node's hashes, by eth_getBlockByNumber in one batch. */
export const evmNodeHashes =
  (rpc: JsonRpcClient): NodeHashes =>
  async (low, high, signal) => {
    const calls = [];
    for (let n = low; n <= high; n++)
      calls.push({ method: "eth_getBlockByNumber", params: [toHex(n), false] });
    const blocks = (await rpc.batchResults(calls, signal)) as (RpcBlock<string> | null)[];
    return blocks.map((b) => b?.hash?.toLowerCase());
  };

export async function findCommonAncestor(
  nodeHashes: NodeHashes,
  db: Kysely<DB>,
  chainId: number,
  from: bigint,
  lowest: bigint,
  signal?: AbortSignal,
): Promise<Checkpoint | undefined> {
  let high = from;
  let window = FIRST_WINDOW;
  while (high >= lowest) {
    const low = high - window + 1n > lowest ? high - window + 1n : lowest;
    const stored = await storedHashes(db, chainId, low, high);
    const theirs = await nodeHashes(low, high, signal);
    for (let n = high; n >= low; n--) {
      const ours = stored.get(n);
      if (ours !== undefined && ours === theirs[Number(n - low)]) return { number: n, hash: ours };
    }
    high = low - 1n;
    if (window < MAX_WINDOW) window *= 2n;
  }
  return undefined;
}
