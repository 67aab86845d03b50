// Bitcoin Core's JSON-RPC as the Bitcoin follower reads it: a client whose URL's credentials
// (http://user:password@host:8332, Core's rpcauth or rpcuser/rpcpassword) travel as basic authentication, and the
// shapes of the calls it makes: getblockchaininfo, getblockcount, getblockhash and getblock with verbosity 3, which
// gives every input the output it spends (`prevout`, Core 23 and later), so that a block is read without asking for
// any earlier transaction. Amounts come in BTC as JSON numbers: satoshis() turns them into exact integers.
import { JsonRpcClient, type JsonRpcClientOptions } from "./json-rpc.ts";

/** A client for the node at `url`; its user and password, if the URL has them, go in an Authorization header. */
export function bitcoinRpcClient(url: string, options: JsonRpcClientOptions = {}): JsonRpcClient {
  const parsed = new URL(url);
  const headers: Record<string, string> = {};
  if (parsed.username || parsed.password) {
    const user = decodeURIComponent(parsed.username);
    const password = decodeURIComponent(parsed.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    parsed.username = "";
    parsed.password = "";
  }
  // Core answers batches as JSON-RPC 1.0 and 2.0 alike; its blocks are large, so fewer calls per request.
  return new JsonRpcClient(parsed.href, {
    maxBatch: 10,
    // A full block at verbosity 3 is tens of megabytes of JSON: two minutes per request.
    timeoutMs: 120_000,
    ...options,
    headers: { ...headers, ...options.headers },
  });
}

/** `getblockchaininfo`'s fields the follower reads. */
export interface CoreChainInfo {
  /** "main", "test", "testnet4", "signet" or "regtest" */
  chain: string;
  blocks: number;
}

export interface CoreScriptPubKey {
  /** nonstandard, pubkey, pubkeyhash, scripthash, multisig, nulldata, witness_v0_keyhash, witness_v0_scripthash,
   * witness_v1_taproot, witness_unknown, anchor */
  type: string;
  /** Core 22 and later: the address when one is well defined */
  address?: string;
  /** before Core 22 */
  addresses?: string[];
  /** the script, hex */
  hex?: string;
}

export interface CoreOutput {
  value: number;
  n: number;
  scriptPubKey: CoreScriptPubKey;
}

export interface CoreInput {
  /** a coinbase input's script; absent on others */
  coinbase?: string;
  txid?: string;
  vout?: number;
  /** verbosity 3: the output this input spends */
  prevout?: { value: number; scriptPubKey: CoreScriptPubKey; generated?: boolean; height?: number };
}

export interface CoreTransaction {
  txid: string;
  vin: CoreInput[];
  vout: CoreOutput[];
}

export interface CoreBlock {
  hash: string;
  height: number;
  time: number;
  previousblockhash?: string;
  tx: CoreTransaction[];
}

const SATOSHIS_PER_BTC = 100_000_000;

/**
 * An amount in BTC as Core writes it (a JSON number of at most 8 decimals) in satoshis. Exact: 21 million BTC is
 * 2.1e15 satoshis, within a double's integers, and the product's error is far below half a satoshi.
 */
export function satoshis(btc: number): bigint {
  if (!Number.isFinite(btc) || btc < 0) throw new Error(`${btc} is not an amount of BTC`);
  return BigInt(Math.round(btc * SATOSHIS_PER_BTC));
}

/** Core's network names for the chain list's `bitcoin_network`. */
export const CORE_CHAIN_NAMES = { mainnet: "main", testnet: "test", regtest: "regtest" } as const;
