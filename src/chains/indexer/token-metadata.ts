// Reads an ERC-20 token's symbol, name and decimals with eth_call, once per token. Tokens are not all polite:
// some revert or lack the functions (the field stays null), some return bytes32 instead of a string (MKR, SAI),
// some return garbage. Whatever comes back is cleaned to printable text PostgreSQL can store (no NUL).
import { decodeAbiParameters, hexToString } from "viem";
import type { JsonRpcClient, RpcCall } from "../rpc/json-rpc.ts";
import type { TokenRow } from "../store/transfers.ts";

const SELECTOR = {
  symbol: "0x95d89b41",
  name: "0x06fdde03",
  decimals: "0x313ce567",
} as const;

const MAX_SYMBOL = 64;
const MAX_NAME = 200;

export async function readTokenMetadata(
  rpc: JsonRpcClient,
  chainId: number,
  tokens: string[],
  signal?: AbortSignal,
): Promise<TokenRow[]> {
  if (tokens.length === 0) return [];
  const calls: RpcCall[] = tokens.flatMap((token) =>
    [SELECTOR.symbol, SELECTOR.name, SELECTOR.decimals].map((data) => ({
      method: "eth_call",
      params: [{ to: token, data }, "latest"],
    })),
  );
  // Call errors (reverts) leave a field null; transport errors throw, and the batch is retried as a whole.
  const outcomes = await rpc.batch(calls, signal);
  return tokens.map((address, i) => {
    const result = (k: number) => {
      const outcome = outcomes[i * 3 + k];
      return outcome?.ok && typeof outcome.result === "string" ? outcome.result : undefined;
    };
    return {
      chainId,
      address,
      symbol: decodeText(result(0), MAX_SYMBOL),
      name: decodeText(result(1), MAX_NAME),
      decimals: decodeDecimals(result(2)),
    };
  });
}

/** An ABI string, or a bytes32 padded with zeros; null when neither gives printable text. */
export function decodeText(data: string | undefined, maxLength: number): string | null {
  if (!data || data === "0x") return null;
  let text: string | undefined;
  if (data.length === 66) {
    text = hexToString(data as `0x${string}`);
  } else {
    try {
      [text] = decodeAbiParameters([{ type: "string" }], data as `0x${string}`);
    } catch {
      return null;
    }
  }
  // Control characters (NUL padding above all) and the replacement character of invalid UTF-8 go away.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const clean = text.replace(/[\u0000-\u001f\u007f\ufffd]/g, "").trim();
  return clean.length > 0 ? clean.slice(0, maxLength) : null;
}

/** uint8 (or any uint) decimals up to 255; anything else is unknown. */
export function decodeDecimals(data: string | undefined): number | null {
  if (data === undefined || data.length !== 66) return null;
  const value = BigInt(data);
  return value <= 255n ? Number(value) : null;
}
