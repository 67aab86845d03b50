// Shared test setup: a migrated database (PGlite, or PostgreSQL with DATABASE_URL), chain configs pointing at the
// replay server, an ExplorerHistory with fast retries and its own rate limiters, and readers of what got stored.
import { sql } from "kysely";
import { ExplorerHistory, type ExplorerOptions, HostRateLimiters } from "../../src/chains/explorer/index.ts";
import type { ChainConfig } from "../../src/chains/registry.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { byKey, type ExpectedRow } from "./history-data.ts";

export type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;
export { openTestDatabase };

export function chainConfig(id: number, apiUrl: string, overrides: Partial<ChainConfig> = {}): ChainConfig {
  return {
    id,
    name: `Test chain ${id}`,
    currency_symbol: "ETH",
    currency_decimals: 18,
    explorer_url: null,
    blockscout_url: null,
    rpc_url: null,
    coin_image: null,
    enabled: true,
    explorer_api_url: apiUrl,
    explorer_api_kind: "blockscout",
    explorer_rate_limit_per_second: 1000,
    ...overrides,
  };
}

export const FAST: Partial<ExplorerOptions> = {
  backoffBaseMs: 5,
  backoffMaxMs: 20,
  requestTimeoutMs: 2000,
  // The replay servers run on 127.0.0.1: explorer requests go through the outbound client, which allows them here.
  outbound: new OutboundClient({ allowPrivate: true }),
};

export function historyFor(
  database: TestDatabase,
  chains: ChainConfig[],
  options: Partial<ExplorerOptions> = {},
): ExplorerHistory {
  const byId = new Map(chains.map((c) => [c.id, c]));
  return new ExplorerHistory(database.db, (id) => byId.get(id), {
    ...FAST,
    rateLimiters: new HostRateLimiters(),
    ...options,
  });
}

/** Transfers stored for a chain that involve `address`, as the expected rows are written, ordered by key. */
export async function storedRows(
  database: TestDatabase,
  chainId: number,
  address: string,
): Promise<ExpectedRow[]> {
  const { rows } = await sql<ExpectedRow & { block_time: Date | string; block_number: string | number }>`
    SELECT tx_hash, log_index, block_number::text AS block_number, block_time, from_address, to_address, token,
      value::text AS value
    FROM transfers WHERE chain_id = ${chainId} AND (from_address = ${address} OR to_address = ${address})`.execute(
    database.db,
  );
  return rows
    .map((r) => ({
      ...r,
      block_number: String(r.block_number),
      block_time: new Date(r.block_time).toISOString(),
    }))
    .sort(byKey);
}

export async function fetchRecord(database: TestDatabase, chainId: number, address: string) {
  const { rows } = await sql<{
    fetched_at: Date;
    transfer_count: number;
    covered_from: Date | null;
    covered_to: Date | null;
    truncated: boolean;
    source: string | null;
  }>`SELECT fetched_at, transfer_count, covered_from, covered_to, truncated, source
     FROM explorer_fetches WHERE chain_id = ${chainId} AND address = ${address}`.execute(database.db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    ...row,
    fetched_at: new Date(row.fetched_at),
    covered_from: row.covered_from && new Date(row.covered_from),
    covered_to: row.covered_to && new Date(row.covered_to),
  };
}
