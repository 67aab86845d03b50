// Reads and writes of monitored addresses. An address and chain are monitored once per project; stopping keeps
// the row (retention) with the time it stopped.
import { type Kysely, sql } from "kysely";
import { checkpointBlockOf } from "../ledger/index.ts";
import { capLock } from "../platform/db/advisory.ts";
import { AppError } from "../platform/errors.ts";
import type { DB } from "../schema.ts";

export interface MonitoredAddress {
  id: number;
  projectId: number;
  chainId: number;
  address: string;
  foreignUserId: string;
  description: string | null;
  createdAt: Date;
  stoppedAt: Date | null;
  jurisdiction: string | null;
}

type Row = DB["monitored_addresses"] extends infer T ? { [K in keyof T]: unknown } : never;

function fromRow(r: Row): MonitoredAddress {
  return {
    id: Number(r.id),
    projectId: r.project_id as number,
    chainId: r.chain_id as number,
    address: r.address as string,
    foreignUserId: r.foreign_user_id as string,
    description: (r.description as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
    stoppedAt: r.stopped_at ? new Date(r.stopped_at as string) : null,
    jurisdiction: (r.jurisdiction as string | null) ?? null,
  };
}

/** An address to monitor, as registered. */
export interface NewAddress {
  projectId: number;
  chainId: number;
  address: string;
  foreignUserId: string;
  description: string | null;
  jurisdiction: string | null;
}

/**
 * The new address, or undefined when the project already monitors this address on this chain; 409 when the
 * project monitors `cap` addresses already (VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT). Counted and inserted under
 * the project's lock, so that requests at once cannot pass the cap together.
 */
export async function insertAddress(
  db: Kysely<DB>,
  cap: number,
  a: NewAddress,
): Promise<MonitoredAddress | undefined> {
  return db.transaction().execute(async (trx) => {
    await capLock("monitored_addresses", a.projectId).execute(trx);
    const count = await trx
      .selectFrom("monitored_addresses")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("project_id", "=", a.projectId)
      .where("stopped_at", "is", null)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= cap)
      throw new AppError(
        "conflict",
        `The project monitors ${Number(count?.n)} addresses, its cap (VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT = ${cap}): stop monitoring some (DELETE /projects/{projectId}/addresses/{id}) or ask the operator to raise the cap`,
      );
    return insertRow(trx, a);
  });
}

async function insertRow(db: Kysely<DB>, a: NewAddress): Promise<MonitoredAddress | undefined> {
  const row = await db
    .insertInto("monitored_addresses")
    .values({
      project_id: a.projectId,
      chain_id: a.chainId,
      address: a.address,
      foreign_user_id: a.foreignUserId,
      description: a.description,
      jurisdiction: a.jurisdiction,
      // Transfers count from the next block the indexer writes (src/monitoring/watch.ts).
      watch_from_block: checkpointBlockOf(a.chainId),
    })
    .onConflict((oc) =>
      oc.columns(["project_id", "chain_id", "address"]).where("stopped_at", "is", null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  return row ? fromRow(row as Row) : undefined;
}

export async function getAddress(
  db: Kysely<DB>,
  projectId: number,
  id: number,
): Promise<MonitoredAddress | undefined> {
  const row = await db
    .selectFrom("monitored_addresses")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("id", "=", String(id))
    .executeTakeFirst();
  return row ? fromRow(row as Row) : undefined;
}

/** The project's monitored addresses (not the stopped ones), oldest first; of one user when given. */
export async function listAddresses(
  db: Kysely<DB>,
  projectId: number,
  q: { foreignUserId?: string | undefined; limit: number; offset: number },
): Promise<MonitoredAddress[]> {
  let query = db
    .selectFrom("monitored_addresses")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("stopped_at", "is", null);
  if (q.foreignUserId !== undefined) query = query.where("foreign_user_id", "=", q.foreignUserId);
  const rows = await query.orderBy("id").limit(q.limit).offset(q.offset).execute();
  return rows.map((r) => fromRow(r as Row));
}

/** Stops monitoring (the first stop's time is kept); the address afterwards, or undefined when unknown. */
export async function stopAddress(
  db: Kysely<DB>,
  projectId: number,
  id: number,
): Promise<MonitoredAddress | undefined> {
  await db
    .updateTable("monitored_addresses")
    .set({ stopped_at: sql`COALESCE(stopped_at, now())` })
    .where("project_id", "=", projectId)
    .where("id", "=", String(id))
    .execute();
  return getAddress(db, projectId, id);
}
