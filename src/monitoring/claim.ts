// Claiming the pending transfers of monitored addresses for checking, so that N workers share the work and one
// project's slow integrator delays only that project (docs/decisions/0023-fair-integrator.md):
//  - the unit of work is a user: up to `perUser` of its oldest pending transfers, checked in order by the worker
//    that holds them, because a client's accumulations read the verdicts of its earlier operations; a user with a
//    transfer under a live lease is busy, and none of its transfers is claimed by anyone else;
//  - each project has at most `perProject` users under a lease at once, across every worker: a project whose
//    profile reads are slow fills its own slots, never another's;
//  - projects take turns: each project's first user comes before any project's second;
//  - a claim is a lease (`lease_owner`, `lease_until`): a worker that dies leaves its leases to run out and another
//    takes its transfers over; a worker whose lease was taken over commits nothing (check.ts marks a transfer
//    evaluated only under its own lease).
// Claims are serialised (namedLock, src/platform/db/advisory.ts) so that the busy users and per-project counts they read
// are those the claim before left; rows another transaction holds are skipped (FOR UPDATE SKIP LOCKED).
import { type Kysely, sql } from "kysely";
import { namedLock } from "../platform/db/advisory.ts";
import type { DB } from "../schema.ts";
import { keyList, type TransferKey } from "./facts.ts";

export interface ClaimLimits {
  /** users claimed at most (this worker's free slots) */
  users: number;
  /** users of one project under a lease at once, by every worker */
  perProject: number;
  /** transfers of one user claimed at once */
  perUser: number;
  leaseMs: number;
  /** this worker's name on its leases */
  owner: string;
  /** projects whose transfers wait (their outbox is full) */
  held?: (projectId: number) => Promise<boolean>;
}

export interface UserClaim {
  projectId: number;
  foreignUserId: string;
  /** oldest first */
  transfers: TransferKey[];
}

/** How many of a project's oldest pending transfers a claim looks at. */
const LOOK_AHEAD = 500;

interface PendingRow {
  project_id: number;
  foreign_user_id: string;
  address_id: string;
  chain_id: number;
  tx_hash: string;
  log_index: number;
}

export async function claimUsers(db: Kysely<DB>, at: Date, limits: ClaimLimits): Promise<UserClaim[]> {
  if (limits.users <= 0) return [];
  const leaseUntil = new Date(at.getTime() + limits.leaseMs);
  // The projects with a pending transfer (a loose scan of the pending index: one probe per project), less those
  // held back; read before the claim's transaction, as `held` reads the database itself.
  const { rows: pendingProjects } = await sql<{ project_id: number }>`
    WITH RECURSIVE p AS (
      (SELECT project_id FROM monitored_transfers WHERE status = 'pending' ORDER BY project_id LIMIT 1)
      UNION ALL
      SELECT (SELECT m.project_id FROM monitored_transfers m
              WHERE m.status = 'pending' AND m.project_id > p.project_id ORDER BY m.project_id LIMIT 1)
      FROM p WHERE p.project_id IS NOT NULL
    )
    SELECT project_id FROM p WHERE project_id IS NOT NULL`.execute(db);
  const projects: number[] = [];
  for (const { project_id } of pendingProjects)
    if (!(await limits.held?.(project_id))) projects.push(project_id);
  if (projects.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await namedLock("monitored_transfers").execute(trx);
    const { rows: busyRows } = await sql<{ project_id: number; foreign_user_id: string }>`
      SELECT DISTINCT mt.project_id, ma.foreign_user_id FROM monitored_transfers mt
      JOIN monitored_addresses ma ON ma.id = mt.address_id
      WHERE mt.status = 'pending' AND mt.lease_until >= ${at}`.execute(trx);
    const busy = new Map<number, Set<string>>();
    for (const r of busyRows) {
      const users = busy.get(r.project_id) ?? new Set<string>();
      users.add(r.foreign_user_id);
      busy.set(r.project_id, users);
    }

    // Each project's users with free slots, its oldest first.
    const perProject: UserClaim[][] = [];
    for (const projectId of projects) {
      const taken = busy.get(projectId) ?? new Set<string>();
      const slots = Math.min(limits.users, limits.perProject - taken.size);
      if (slots <= 0) continue;
      const { rows } = await sql<PendingRow>`
        SELECT mt.project_id, ma.foreign_user_id, mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index
        FROM monitored_transfers mt JOIN monitored_addresses ma ON ma.id = mt.address_id
        WHERE mt.project_id = ${projectId} AND mt.status = 'pending'
        ORDER BY mt.created_at, mt.block_number, mt.log_index
        LIMIT ${LOOK_AHEAD}`.execute(trx);
      const users = new Map<string, UserClaim>();
      for (const r of rows) {
        if (taken.has(r.foreign_user_id)) continue;
        let claim = users.get(r.foreign_user_id);
        if (!claim) {
          if (users.size >= slots) continue;
          claim = { projectId, foreignUserId: r.foreign_user_id, transfers: [] };
          users.set(r.foreign_user_id, claim);
        }
        if (claim.transfers.length < limits.perUser)
          claim.transfers.push({
            addressId: Number(r.address_id),
            chainId: r.chain_id,
            txHash: r.tx_hash,
            logIndex: r.log_index,
          });
      }
      if (users.size > 0) perProject.push([...users.values()]);
    }

    // Turns: every project's first user, then every project's second, ...
    const chosen: UserClaim[] = [];
    for (let turn = 0; chosen.length < limits.users; turn++) {
      const round = perProject.map((users) => users[turn]).filter((u) => u !== undefined);
      if (round.length === 0) break;
      chosen.push(...round.slice(0, limits.users - chosen.length));
    }
    const keys = chosen.flatMap((c) => c.transfers);
    if (keys.length === 0) return [];

    const { rows: leased } = await sql<{
      address_id: string;
      chain_id: number;
      tx_hash: string;
      log_index: number;
    }>`
      WITH locked AS (
        SELECT address_id, chain_id, tx_hash, log_index FROM monitored_transfers
        WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < ${at})
          AND (address_id, chain_id, tx_hash, log_index) IN (${keyList(keys)})
        FOR UPDATE SKIP LOCKED
      )
      UPDATE monitored_transfers mt SET lease_owner = ${limits.owner}, lease_until = ${leaseUntil}
      FROM locked
      WHERE mt.address_id = locked.address_id AND mt.chain_id = locked.chain_id
        AND mt.tx_hash = locked.tx_hash AND mt.log_index = locked.log_index
      RETURNING mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index`.execute(trx);
    const got = new Set(
      leased.map((r) =>
        keyOf({
          addressId: Number(r.address_id),
          chainId: r.chain_id,
          txHash: r.tx_hash,
          logIndex: r.log_index,
        }),
      ),
    );
    return chosen
      .map((c) => ({ ...c, transfers: c.transfers.filter((t) => got.has(keyOf(t))) }))
      .filter((c) => c.transfers.length > 0);
  });
}

const keyOf = (k: TransferKey) => `${k.addressId}/${k.chainId}/${k.txHash}/${k.logIndex}`;

/** Extends this worker's leases on the transfers it still holds; how many it still holds. */
export async function renewLeases(
  db: Kysely<DB>,
  keys: readonly TransferKey[],
  owner: string,
  until: Date,
): Promise<number> {
  if (keys.length === 0) return 0;
  const { numAffectedRows } = await sql`
    UPDATE monitored_transfers SET lease_until = ${until}
    WHERE status = 'pending' AND lease_owner = ${owner}
      AND (address_id, chain_id, tx_hash, log_index) IN (${keyList(keys)})`.execute(db);
  return Number(numAffectedRows ?? 0);
}
