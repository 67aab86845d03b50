// A wallet's balances, read from the chain's node over JSON-RPC (the chain's `rpc_url`): the native coin with
// eth_getBalance, and each token the wallet ever moved (from the store, at most MAX_TOKENS, the most recently moved
// first) with the ERC-20 `balanceOf` call; valued at the latest USD price the store holds. A chain without an
// `rpc_url` has no balances to read.
import type { Kysely } from "kysely";
import type { ChainConfig } from "../chains/index.ts";
import { JsonRpcClient } from "../chains/rpc/index.ts";
import { latestPrices, tokensMovedBy } from "../ledger/index.ts";
import type { DB } from "../schema.ts";

const MAX_TOKENS = 50;
const BALANCE_OF = "0x70a08231";
export const BALANCE_TIMEOUT_MS = 5_000;

export interface Asset {
  /** "native" or the token contract */
  token: string;
  symbol: string | null;
  decimals: number | null;
  /** raw amount in the token's smallest unit, a decimal string */
  raw: string;
  /** whole tokens, when the decimals are known */
  balance: number | null;
  usd: number | null;
}

/** The wallet's assets with a balance, native first; undefined when the chain has no node to ask. */
export async function readBalances(
  db: Kysely<DB>,
  chain: ChainConfig,
  wallet: string,
): Promise<Asset[] | undefined> {
  if (!chain.rpc_url) return undefined;
  const tokens = await tokensMovedBy(db, chain.id, wallet, MAX_TOKENS);
  const rpc = new JsonRpcClient(chain.rpc_url, { timeoutMs: BALANCE_TIMEOUT_MS });
  const data = `${BALANCE_OF}${wallet.slice(2).padStart(64, "0")}`;
  const outcomes = await rpc.batch([
    { method: "eth_getBalance", params: [wallet, "latest"] },
    ...tokens.map((t) => ({ method: "eth_call", params: [{ to: t.token, data }, "latest"] })),
  ]);
  const listed = [
    { token: "native", symbol: chain.currency_symbol, decimals: chain.currency_decimals },
    ...tokens,
  ];
  const prices = await latestPrices(
    db,
    chain.id,
    listed.map((t) => t.token),
  );
  const assets: Asset[] = [];
  listed.forEach((t, i) => {
    const outcome = outcomes[i];
    if (!outcome?.ok || typeof outcome.result !== "string" || !/^0x[0-9a-fA-F]*$/.test(outcome.result))
      return;
    const raw = outcome.result === "0x" ? 0n : BigInt(outcome.result);
    if (raw === 0n) return;
    const balance = t.decimals === null ? null : Number(raw) / 10 ** t.decimals;
    const price = prices.get(t.token);
    assets.push({
      token: t.token,
      symbol: t.symbol,
      decimals: t.decimals,
      raw: raw.toString(),
      balance,
      usd: balance === null || price === undefined ? null : Math.round(balance * price * 100) / 100,
    });
  });
  return assets;
}
