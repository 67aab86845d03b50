// The explorer cache's side of the store: pages of history go through the shared idempotent writers
// (store/transfers.ts), and `explorer_fetches` (migrations 0002 and 0006) records what a finished fetch covers.
// Raw SQL for explorer_fetches because its 0006 columns are not in the shared Kysely types.
import { type Kysely, sql } from "kysely";
import { attributeTransfers } from "../../attribution/index.ts";
import type { DB } from "../../schema.ts";
import { insertTransfers, markContracts, upsertTokens } from "../store/transfers.ts";
import type { HistoryPage } from "./types.ts";

export interface FetchRecord {
  chainId: number;
  address: string;
  fetchedAt: Date;
  /** Transfers the explorer delivered in that fetch (inside its window). */
  transferCount: number;
  coveredFrom: Date | null;
  coveredTo: Date | null;
  truncated: boolean;
  source: string | null;
}

interface FetchRow {
  fetched_at: Date | string;
  transfer_count: number;
  covered_from: Date | string | null;
  covered_to: Date | string | null;
  truncated: boolean;
  source: string | null;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

export async function readFetch(
  db: Kysely<DB>,
  chainId: number,
  address: string,
): Promise<FetchRecord | undefined> {
  const { rows } = await sql<FetchRow>`
    SELECT fetched_at, transfer_count, covered_from, covered_to, truncated, source
    FROM explorer_fetches WHERE chain_id = ${chainId} AND address = ${address}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    chainId,
    address,
    fetchedAt: new Date(row.fetched_at),
    transferCount: Number(row.transfer_count),
    coveredFrom: date(row.covered_from),
    coveredTo: date(row.covered_to),
    truncated: row.truncated,
    source: row.source,
  };
}

export async function writeFetch(db: Kysely<DB>, r: FetchRecord): Promise<void> {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  await sql`
    INSERT INTO explorer_fetches (chain_id, address, fetched_at, transfer_count, covered_from, covered_to, truncated, source)
    VALUES (${r.chainId}, ${r.address}, ${r.fetchedAt.toISOString()}, ${r.transferCount},
      ${iso(r.coveredFrom)}::timestamptz, ${iso(r.coveredTo)}::timestamptz, ${r.truncated}, ${r.source})
    ON CONFLICT (chain_id, address) DO UPDATE SET
      fetched_at = excluded.fetched_at, transfer_count = excluded.transfer_count,
      covered_from = excluded.covered_from, covered_to = excluded.covered_to,
      truncated = excluded.truncated, source = excluded.source`.execute(db);
}

/** Stores one page (its transfers, token metadata and contract marks) in one transaction. */
export async function storePage(
  db: Kysely<DB>,
  chainId: number,
  page: Pick<HistoryPage, "tokens" | "contracts">,
  transfers: NonNullable<HistoryPage["items"][number]["transfer"]>[],
): Promise<void> {
  if (transfers.length === 0 && page.tokens.length === 0 && page.contracts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await upsertTokens(
      trx,
      page.tokens.map((t) => ({ chainId, ...t })),
    );
    await insertTransfers(
      trx,
      transfers.map((t) => ({ chainId, ...t })),
    );
    await attributeTransfers(trx, chainId, transfers);
    await markContracts(trx, chainId, page.contracts);
  });
}

/** Transfers of the address in the store within the window (both directions, any source). */
export async function countTransfers(
  db: Kysely<DB>,
  chainId: number,
  address: string,
  window: { from?: Date | undefined; to?: Date | undefined },
): Promise<number> {
  const inWindow = (q: ReturnType<typeof base>) => {
    let query = q;
    if (window.from) query = query.where("block_time", ">=", window.from);
    if (window.to) query = query.where("block_time", "<=", window.to);
    return query;
  };
  const base = () => db.selectFrom("transfers").where("chain_id", "=", chainId);
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom(
          inWindow(base().where("from_address", "=", address))
            .select(["tx_hash", "log_index"])
            .union(inWindow(base().where("to_address", "=", address)).select(["tx_hash", "log_index"]))
            .as("t"),
        )
        .select((e) => e.fn.countAll<string>().as("n"))
        .as("n"),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
