// Which transactions of a Tron block moved TRX. Tron's /jsonrpc writes every transaction in Ethereum's shape with
// `type` always "0x0" and `value` filled per contract type (java-tron JsonRpcApiUtil.getTransactionAmount): the sun
// amount of a TransferContract, the call_value (sun) of a TriggerSmartContract, but also the token amount of a TRC-10
// TransferAssetContract, the frozen balance of a FreezeBalanceContract, the vote count of a VoteWitnessContract, ...
// each with `to` set and `input` "0x". Only a TriggerSmartContract has an `input`, so a transaction with data moved
// its value as TRX; for the others the node's HTTP API (/wallet/getblockbylimitnext, the blocks with their
// contracts' types) tells TransferContract apart. Whatever it cannot tell is not recorded as TRX.
import { hexToBigInt } from "../rpc/evm.ts";
import { type FetchedRange, InconsistentRangeError } from "./fetch-range.ts";

/** The contract types whose JSON-RPC `value` is TRX (sun) moved from `from` to `to`. */
const TRX_MOVING = new Set(["TransferContract", "TriggerSmartContract"]);
/** java-tron's GetBlockByLimitNextServlet answers at most 100 blocks (endNum exclusive). */
const BLOCKS_PER_REQUEST = 100;

export interface TronWalletOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface WalletBlock {
  blockID?: string;
  block_header?: { raw_data?: { number?: number } };
  transactions?: { txID?: string; raw_data?: { contract?: { type?: string }[] } }[];
}

/** The hashes (lowercase 0x) of the range's transactions whose `value` is TRX. */
export async function trxMovingTransactions(
  walletUrl: string,
  range: FetchedRange,
  signal?: AbortSignal,
  options: TronWalletOptions = {},
): Promise<Set<string>> {
  const moving = new Set<string>();
  const ask: bigint[] = [];
  for (const block of range.blocks) {
    let unclear = false;
    for (const tx of block.transactions) {
      if (hexToBigInt(tx.value) === 0n) continue;
      if (tx.input && tx.input !== "0x") moving.add(tx.hash.toLowerCase());
      else unclear = true;
    }
    if (unclear) ask.push(block.number);
  }
  if (ask.length === 0) return moving;
  const wanted = new Map(range.blocks.map((b) => [b.number, b]));
  const types = new Map<string, string>();
  for (let i = 0; i < ask.length; ) {
    const start = ask[i] as bigint;
    let end = start;
    while (i < ask.length && (ask[i] as bigint) - start < BigInt(BLOCKS_PER_REQUEST))
      end = ask[i++] as bigint;
    const blocks = await blocksByLimit(walletUrl, start, end + 1n, signal, options);
    for (const block of blocks) {
      const number = BigInt(block.block_header?.raw_data?.number ?? -1);
      const ours = wanted.get(number);
      if (!ours) continue;
      if (`0x${(block.blockID ?? "").toLowerCase()}` !== ours.hash) {
        throw new InconsistentRangeError(`block ${number}: the HTTP API's block is from another fork`);
      }
      for (const tx of block.transactions ?? []) {
        const type = tx.raw_data?.contract?.[0]?.type;
        if (tx.txID && type) types.set(`0x${tx.txID.toLowerCase()}`, type);
      }
    }
  }
  for (const number of ask) {
    for (const tx of wanted.get(number)?.transactions ?? []) {
      const hash = tx.hash.toLowerCase();
      if (hexToBigInt(tx.value) === 0n || moving.has(hash)) continue;
      const type = types.get(hash);
      if (type === undefined) {
        throw new InconsistentRangeError(`block ${number}: the HTTP API does not list transaction ${hash}`);
      }
      if (TRX_MOVING.has(type)) moving.add(hash);
    }
  }
  return moving;
}

async function blocksByLimit(
  walletUrl: string,
  startNum: bigint,
  endNum: bigint,
  signal: AbortSignal | undefined,
  options: TronWalletOptions,
): Promise<WalletBlock[]> {
  const url = new URL(`${walletUrl}/wallet/getblockbylimitnext`);
  url.searchParams.set("startNum", startNum.toString());
  url.searchParams.set("endNum", endNum.toString());
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const response = await (options.fetch ?? fetch)(url, {
    headers: { accept: "application/json" },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const where = `Tron HTTP API ${url.host}${url.pathname}?startNum=${startNum}&endNum=${endNum}`;
  if (!response.ok) throw new Error(`${where}: HTTP ${response.status}`);
  const body = (await response.json()) as { block?: unknown; Error?: unknown };
  // java-tron answers {} for a range it does not hold (yet) and {"Error": ...} for a request it refuses.
  if (body.Error !== undefined) throw new Error(`${where}: ${String(body.Error)}`);
  if (body.block === undefined)
    throw new InconsistentRangeError(`${where}: the node does not hold these blocks`);
  if (!Array.isArray(body.block)) throw new Error(`${where}: no block list in the answer`);
  return body.block as WalletBlock[];
}
