// What the explorer cache holds of an address: the record of its last finished fetch (what it covered, from which
// explorer) and the transfers the ledger holds of it within a window, whatever wrote them. Every analysis of an
// explorer chain reads the record of each frontier address: concurrent reads (quick checks) share a statement.
// Raw SQL for explorer_fetches because its 0006 columns are not in the shared Kysely types.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import type { ReadCoalescing } from "./layer-read.ts";

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

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

/** The record of an address's last finished fetch, if any; with a ReadCoalescing, read with others of the moment. */
export async function readFetch(
  db: Kysely<DB>,
  chainId: number,
  address: string,
  coalescing?: ReadCoalescing,
): Promise<FetchRecord | undefined> {
  if (!coalescing) return (await readFetches(db, chainId, [address])).get(address);
  return coalescing
    .coalescerFor<FetchRecord | undefined>(
      `explorer-fetch:${chainId}`,
      (addresses) => readFetches(db, chainId, addresses),
      () => undefined,
    )
    .get(address);
}

/** The records of the last finished fetches of several addresses of one chain, by address (one statement). */
export async function readFetches(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<Map<string, FetchRecord>> {
  const { rows } = await sql<FetchRow & { address: string }>`
    SELECT address, fetched_at, transfer_count, covered_from, covered_to, truncated, source
    FROM explorer_fetches WHERE chain_id = ${chainId} AND address = ANY(${[...addresses]}::text[])`.execute(
    db,
  );
  return new Map(
    rows.map((row) => [
      row.address,
      {
        chainId,
        address: row.address,
        fetchedAt: new Date(row.fetched_at),
        transferCount: Number(row.transfer_count),
        coveredFrom: date(row.covered_from),
        coveredTo: date(row.covered_to),
        truncated: row.truncated,
        source: row.source,
      },
    ]),
  );
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
