// Reads network statistics and market data from a Blockscout instance's `GET /api/v2/stats`.
// Blockscout sends numbers as strings (and sometimes as numbers) and `tvl` as null; we keep decimal strings.
import { OutboundClient } from "../platform/outbound/index.ts";

export interface NetworkStats {
  market_cap: string | null;
  coin_price: string | null;
  coin_image: string | null;
  total_addresses: string | null;
  total_blocks: string | null;
  total_transactions: string | null;
  tvl: string | null;
}

const DECIMAL = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function decimalString(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) {
    // String(1e21) is "1e+21"; integers are written out in full digits.
    return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  }
  if (typeof value === "string" && DECIMAL.test(value.trim())) return value.trim();
  return null;
}

export function parseBlockscoutStats(body: unknown): NetworkStats {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new Error("Blockscout stats: not a JSON object");
  }
  const stats = body as Record<string, unknown>;
  // Blockscout always sends its counters; a body without any is an error page or another API, not stats, and
  // must not replace the last good snapshot with empty figures.
  if (
    ![stats.total_blocks, stats.total_addresses, stats.total_transactions].some(
      (v) => decimalString(v) !== null,
    )
  ) {
    throw new Error("Blockscout stats: no network counters in the response");
  }
  const image = stats.coin_image;
  return {
    market_cap: decimalString(stats.market_cap),
    coin_price: decimalString(stats.coin_price),
    coin_image: typeof image === "string" && /^https?:\/\//.test(image) ? image : null,
    total_addresses: decimalString(stats.total_addresses),
    total_blocks: decimalString(stats.total_blocks),
    total_transactions: decimalString(stats.total_transactions),
    tvl: decimalString(stats.tvl),
  };
}

const STATS_MAX_BYTES = 1_000_000;

/** Through the safe outbound client (its address policy; no redirects: a 3xx is a failure). */
export async function fetchBlockscoutStats(
  baseUrl: string,
  signal: AbortSignal,
  outbound: OutboundClient = defaultOutbound,
): Promise<NetworkStats> {
  const url = `${baseUrl.replace(/\/+$/, "")}/api/v2/stats`;
  // Read with a limit while it streams: a stats answer is a few hundred bytes.
  const response = await outbound
    .request({
      method: "GET",
      url,
      headers: { accept: "application/json" },
      maxResponseBytes: STATS_MAX_BYTES,
      signal,
    })
    .catch((error: unknown) => {
      throw (error as { kind?: string }).kind === "too_large"
        ? new Error("Blockscout stats: response too large")
        : new Error(`Blockscout stats: ${(error as Error).message}`);
    });
  if (response.status < 200 || response.status >= 300)
    throw new Error(`Blockscout stats: HTTP ${response.status}`);
  return parseBlockscoutStats(JSON.parse(response.body.toString("utf8")));
}

const defaultOutbound = new OutboundClient();
