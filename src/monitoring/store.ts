// Reads and writes of monitored addresses. An address is monitored at most once per project on each chain: on one
// chain, or on every chain the indexer follows (chain_id null, migrations/0023_every_chain_addresses.sql), never
// both; stopping keeps the row (retention) with the time it stopped. Changing an address's user or description is
// audited.
import { type Kysely, sql } from "kysely";
import { checkpointBlockOf } from "../ledger/index.ts";
import { capLock } from "../platform/db/advisory.ts";
import { AppError } from "../platform/errors.ts";
import { writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";

export interface MonitoredAddress {
  id: number;
  projectId: number;
  /** null: every chain the indexer follows */
  chainId: number | null;
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
    chainId: (r.chain_id as number | null) ?? null,
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
  /** null: every chain the indexer follows */
  chainId: number | null;
  address: string;
  foreignUserId: string;
  description: string | null;
  jurisdiction: string | null;
  /** of an every-chain address: the chains the indexer follows now, whose indexed heads watching starts after */
  followed?: readonly number[];
  /** who registers it, for the audit (`key:<id>`) */
  actor: string;
}

/**
 * The new address; 409 when the project already monitors this address on this chain (or on every chain, or, for
 * an every-chain address, on any chain), naming the record, and when the project monitors `cap` addresses already
 * (VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT). Checked and inserted under the project's lock, so that requests at
 * once cannot pass either rule together.
 */
export async function insertAddress(db: Kysely<DB>, cap: number, a: NewAddress): Promise<MonitoredAddress> {
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
    const clash = await trx
      .selectFrom("monitored_addresses")
      .select(["id", "chain_id"])
      .where("project_id", "=", a.projectId)
      .where("address", "=", a.address)
      .where("stopped_at", "is", null)
      .where((eb) =>
        a.chainId === null
          ? eb.lit(true)
          : eb.or([eb("chain_id", "=", a.chainId), eb("chain_id", "is", null)]),
      )
      .orderBy("id")
      .executeTakeFirst();
    if (clash)
      throw new AppError(
        "conflict",
        `This address is already monitored ${clash.chain_id === null ? "on every chain" : `on chain ${clash.chain_id}`} (address id ${clash.id}): change it with PATCH or stop it with DELETE /projects/{projectId}/addresses/${clash.id} first`,
      );
    const created = await insertRow(trx, a);
    if (!created) throw new AppError("conflict", "This address is already monitored on this chain");
    await writeAudit(trx, {
      projectId: a.projectId,
      actor: a.actor,
      action: "address.registered",
      target: `address:${created.id}`,
      details: {
        chainId: a.chainId,
        address: a.address,
        foreignUserId: a.foreignUserId,
        description: a.description,
        jurisdiction: a.jurisdiction,
      },
    });
    return created;
  });
}

/** Each followed chain's indexed head now, as a JSON object by chain id (SQL). */
function headsOf(chains: readonly number[]) {
  if (chains.length === 0) return sql`'{}'::jsonb`;
  return sql`jsonb_build_object(${sql.join(chains.map((id) => sql`${String(id)}::text, ${checkpointBlockOf(id)}`))})`;
}

async function insertRow(db: Kysely<DB>, a: NewAddress): Promise<MonitoredAddress | undefined> {
  // Transfers count from the next block the indexer writes (src/monitoring/watch.ts): on the address's chain, or
  // on each chain followed now (a chain followed later counts from the registration time on).
  const watch =
    a.chainId === null
      ? { watch_from_block: null, watch_from_blocks: headsOf(a.followed ?? []) }
      : { watch_from_block: checkpointBlockOf(a.chainId) };
  const values = {
    project_id: a.projectId,
    chain_id: a.chainId,
    address: a.address,
    foreign_user_id: a.foreignUserId,
    description: a.description,
    jurisdiction: a.jurisdiction,
    ...watch,
  };
  const row = await db
    .insertInto("monitored_addresses")
    .values(values)
    .onConflict((oc) =>
      a.chainId === null
        ? oc
            .columns(["project_id", "address"])
            .where("stopped_at", "is", null)
            .where("chain_id", "is", null)
            .doNothing()
        : oc.columns(["project_id", "chain_id", "address"]).where("stopped_at", "is", null).doNothing(),
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

/**
 * Stops monitoring (the first stop's time is kept), audited in the same transaction when it stops it; the address
 * afterwards, or undefined when unknown.
 */
export async function stopAddress(
  db: Kysely<DB>,
  projectId: number,
  id: number,
  actor: string,
): Promise<MonitoredAddress | undefined> {
  return db.transaction().execute(async (trx) => {
    const stopped = await trx
      .updateTable("monitored_addresses")
      .set({ stopped_at: sql`now()` })
      .where("project_id", "=", projectId)
      .where("id", "=", String(id))
      .where("stopped_at", "is", null)
      .returning(["chain_id", "address", "foreign_user_id"])
      .executeTakeFirst();
    if (stopped)
      await writeAudit(trx, {
        projectId,
        actor,
        action: "address.stopped",
        target: `address:${id}`,
        details: {
          chainId: stopped.chain_id,
          address: stopped.address,
          foreignUserId: stopped.foreign_user_id,
        },
      });
    return getAddress(trx, projectId, id);
  });
}

/** What PATCH may change of an address: its user and its description. */
export interface AddressPatch {
  foreignUserId?: string;
  description?: string | null;
}

/**
 * Changes the address's user or description (stopped or not: its recorded transfers stay its own, and are its new
 * user's from then on); the change, with what it replaced, is audited in the same transaction. The address
 * afterwards, or undefined when the project has none of this id.
 */
export async function updateAddress(
  db: Kysely<DB>,
  projectId: number,
  id: number,
  patch: AddressPatch,
  actor: string,
): Promise<MonitoredAddress | undefined> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("monitored_addresses")
      .select(["foreign_user_id", "description"])
      .where("project_id", "=", projectId)
      .where("id", "=", String(id))
      .forUpdate()
      .executeTakeFirst();
    if (!before) return undefined;
    const set: { foreign_user_id?: string; description?: string | null } = {};
    const changes: Record<string, { from: string | null; to: string | null }> = {};
    if (patch.foreignUserId !== undefined && patch.foreignUserId !== before.foreign_user_id) {
      set.foreign_user_id = patch.foreignUserId;
      changes.foreign_user_id = { from: before.foreign_user_id, to: patch.foreignUserId };
    }
    if (patch.description !== undefined && patch.description !== before.description) {
      set.description = patch.description;
      changes.description = { from: before.description, to: patch.description };
    }
    if (Object.keys(set).length > 0) {
      await trx
        .updateTable("monitored_addresses")
        .set(set)
        .where("project_id", "=", projectId)
        .where("id", "=", String(id))
        .execute();
      await writeAudit(trx, {
        projectId,
        actor,
        action: "address.updated",
        target: `address:${id}`,
        details: changes,
      });
    }
    return getAddress(trx, projectId, id);
  });
}

/**
 * The project's active record monitoring `address` on `chainId` (on that chain, or on every chain), if any: an
 * analysis of it concerns a client (src/alerts).
 */
export async function findMonitored(
  db: Kysely<DB>,
  projectId: number,
  chainId: number,
  address: string,
): Promise<MonitoredAddress | undefined> {
  const row = await db
    .selectFrom("monitored_addresses")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("address", "=", address)
    .where((eb) => eb.or([eb("chain_id", "=", chainId), eb("chain_id", "is", null)]))
    .where("stopped_at", "is", null)
    .executeTakeFirst();
  return row ? fromRow(row as Row) : undefined;
}

/** The active records, of every project, monitoring any of `addresses` on `chainId` (or on every chain). */
export async function monitoredAmong(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<MonitoredAddress[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .selectFrom("monitored_addresses")
    .selectAll()
    .where("address", "in", [...addresses])
    .where((eb) => eb.or([eb("chain_id", "=", chainId), eb("chain_id", "is", null)]))
    .where("stopped_at", "is", null)
    .orderBy("project_id")
    .orderBy("address")
    .execute();
  return rows.map((r) => fromRow(r as Row));
}

/** The chains on which some project monitors an address, and whether some monitor one on every chain. */
export async function monitoredChains(db: Kysely<DB>): Promise<{ chains: number[]; everyChain: boolean }> {
  const rows = await db
    .selectFrom("monitored_addresses")
    .select("chain_id")
    .distinct()
    .where("stopped_at", "is", null)
    .execute();
  return {
    chains: rows.flatMap((r) => (r.chain_id === null ? [] : [r.chain_id])).sort((a, b) => a - b),
    everyChain: rows.some((r) => r.chain_id === null),
  };
}
