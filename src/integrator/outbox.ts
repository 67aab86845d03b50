// The notification outbox: enqueueing messages (the monitoring room hands its messages in here, in its own
// transaction), claiming due ones for delivery (several workers at once: each row is claimed by one, for a lease,
// and each project gets its turn), recording each attempt with its outcome, and the reads and redelivery of the
// notifications log. All times come from the caller, so that a test can move the clock.
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { capLock, namedLock } from "../platform/db/advisory.ts";
import type { DB } from "../schema.ts";
import type { IntegrationRow } from "./settings.ts";
import type { NotificationStatus } from "./tables.ts";

export interface NewMessage {
  projectId: number;
  type: "notification" | "error";
  body: unknown;
  /** the monitored address and transfer the message is about: one message of each type per address and transfer */
  transfer?: { addressId: number; chainId: number; txHash: string; logIndex: number };
}

/** The new message's id, or undefined when one of its type about this address and transfer exists already. */
export async function enqueue(db: Kysely<DB>, message: NewMessage, at: Date): Promise<number | undefined> {
  const row = await db
    .insertInto("notifications")
    .values({
      message_id: `msg_${randomUUID()}`,
      project_id: message.projectId,
      address_id: message.transfer ? String(message.transfer.addressId) : null,
      chain_id: message.transfer?.chainId ?? null,
      tx_hash: message.transfer?.txHash ?? null,
      log_index: message.transfer?.logIndex ?? null,
      type: message.type,
      body: JSON.stringify(message.body),
      next_attempt_at: at,
      created_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(["address_id", "chain_id", "tx_hash", "log_index", "type"])
        .where("address_id", "is not", null)
        .doNothing(),
    )
    .returning("id")
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

export interface Claim {
  id: number;
  messageId: string;
  projectId: number;
  type: "notification" | "error";
  body: string;
  /** this attempt's number (1 for the first) */
  attempt: number;
  /** attempts before the latest redelivery */
  roundStart: number;
  /** the project's integration row as the claim found it: the call is made with it */
  integration: IntegrationRow;
}

export interface ClaimLimits {
  /** messages claimed at most (this process's free delivery slots) */
  limit: number;
  /** messages of one project being delivered at once, by every worker */
  perProject: number;
  /** how long a claim lasts: longer than a call can take */
  leaseMs: number;
}

/**
 * Claims messages due at `at` for `leaseMs`: pending ones whose time has come, and ones whose delivery lease ran out
 * (their worker died). Only messages of projects with an integration_url whose deliveries are not paused (src/
 * integrator/health.ts) are due, and of each project no more than `perProject` minus those being delivered now,
 * by any worker: a project whose endpoint is slow holds at most its own slots. Projects take turns: each one's
 * first due message comes before any project's second. Claims are serialised (namedLock, src/platform/db/advisory.ts);
 * rows locked by a worker recording an attempt are skipped, not waited for.
 */
export async function claimDue(db: Kysely<DB>, at: Date, limits: ClaimLimits): Promise<Claim[]> {
  if (limits.limit <= 0) return [];
  const leaseUntil = new Date(at.getTime() + limits.leaseMs);
  return db.transaction().execute(async (trx) => {
    await namedLock("notifications").execute(trx);
    const { rows } = await sql<
      {
        id: string;
        message_id: string;
        project_id: number;
        type: "notification" | "error";
        body: string;
        attempts: number;
        round_start: number;
      } & IntegrationRow
    >`
      WITH due AS (
        SELECT d.id, d.rank FROM integrations i
        CROSS JOIN LATERAL (
          SELECT n.id, row_number() OVER (ORDER BY n.next_attempt_at, n.id) AS rank FROM notifications n
          WHERE n.project_id = i.project_id AND n.status IN ('pending', 'delivering')
            AND ((n.status = 'pending' AND n.next_attempt_at <= ${at})
              OR (n.status = 'delivering' AND n.lease_until < ${at}))
          ORDER BY n.next_attempt_at, n.id
          LIMIT GREATEST(0, ${limits.perProject} - (
            SELECT count(*) FROM notifications b
            WHERE b.project_id = i.project_id AND b.status = 'delivering' AND b.lease_until >= ${at}))
        ) d
        WHERE i.integration_url IS NOT NULL
          AND (i.delivery_paused_until IS NULL OR i.delivery_paused_until <= ${at})
        ORDER BY d.rank, d.id
        LIMIT ${limits.limit}
      ),
      locked AS (
        SELECT n.id FROM notifications n WHERE n.id IN (SELECT id FROM due)
        FOR UPDATE OF n SKIP LOCKED
      )
      UPDATE notifications n
      SET status = 'delivering', attempts = n.attempts + 1, lease_until = ${leaseUntil}
      FROM locked, integrations i WHERE n.id = locked.id AND i.project_id = n.project_id
      RETURNING n.id, n.message_id, n.project_id, n.type, n.body, n.attempts, n.round_start,
        i.integration_url, i.signing_scheme, i.webhook_secret_enc, i.previous_webhook_secret_enc,
        i.previous_webhook_secret_until, i.failing_since, i.delivery_backoffs`.execute(trx);
    return rows.map((r) => ({
      id: Number(r.id),
      messageId: r.message_id,
      projectId: r.project_id,
      type: r.type,
      body: r.body,
      attempt: r.attempts,
      roundStart: r.round_start,
      integration: {
        integration_url: r.integration_url,
        signing_scheme: r.signing_scheme,
        webhook_secret_enc: r.webhook_secret_enc,
        previous_webhook_secret_enc: r.previous_webhook_secret_enc,
        previous_webhook_secret_until: r.previous_webhook_secret_until,
        failing_since: r.failing_since,
        delivery_backoffs: r.delivery_backoffs,
      },
    }));
  });
}

/** Messages of the project waiting to be delivered or being delivered (its cap: VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT). */
export async function openMessages(db: Kysely<DB>, projectId: number): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("project_id", "=", projectId)
    .where("status", "in", ["pending", "delivering"])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface AttemptOutcome {
  startedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** the call signed with the rotated-out secret that the integrator refused before this one was sent again */
  refused?: { status: number; durationMs: number };
}

/**
 * Records an attempt and what follows it: delivered, failed for good, or pending again at `nextAt`. Only the
 * worker holding the claim records it: a worker whose lease ran out and was taken over changes nothing.
 */
export async function recordAttempt(
  db: Kysely<DB>,
  claim: Claim,
  outcome: AttemptOutcome,
  next: { status: "delivered" } | { status: "failed" } | { status: "pending"; at: Date },
): Promise<boolean> {
  const deliveredAt =
    next.status === "delivered" ? new Date(outcome.startedAt.getTime() + outcome.durationMs) : null;
  const nextAttemptAt = next.status === "pending" ? next.at : null;
  // One statement (the message and its attempt together): a delivery's record is most of the deliverer's work on
  // the database.
  const { rows } = await sql<{ recorded: string }>`
    WITH updated AS (
      UPDATE notifications
      SET status = ${next.status}, lease_until = NULL, last_error = ${outcome.error},
        delivered_at = COALESCE(${deliveredAt}::timestamptz, delivered_at),
        next_attempt_at = COALESCE(${nextAttemptAt}::timestamptz, next_attempt_at)
      WHERE id = ${String(claim.id)} AND status = 'delivering' AND attempts = ${claim.attempt}
      RETURNING id
    ),
    attempt AS (
      INSERT INTO notification_attempts (notification_id, attempt, started_at, status_code, error, duration_ms,
        refused_status, refused_ms)
      SELECT id, ${claim.attempt}, ${outcome.startedAt}, ${outcome.statusCode}, ${outcome.error},
        ${Math.round(outcome.durationMs)}, ${outcome.refused?.status ?? null}::integer,
        ${outcome.refused ? Math.round(outcome.refused.durationMs) : null}::integer
      FROM updated
      ON CONFLICT (notification_id, attempt) DO NOTHING
    )
    SELECT count(*) AS recorded FROM updated`.execute(db);
  return Number(rows[0]?.recorded ?? 0) > 0;
}

export interface NotificationView {
  id: number;
  message_id: string;
  type: "notification" | "error";
  status: NotificationStatus;
  address_id: number | null;
  chain_id: number | null;
  tx_hash: string | null;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  last_error: string | null;
  created_at: string;
  body: unknown;
  attempt_log: {
    attempt: number;
    started_at: string;
    status_code: number | null;
    error: string | null;
    duration_ms: number;
    /**
     * during a rotation of an hmac-canonical secret: the integrator refused the call signed with the rotated-out
     * secret (its status and duration), and this attempt is the same call sent again at once with the new one
     */
    refused_old_secret?: { status_code: number; duration_ms: number };
  }[];
}

/** The project's notifications, newest first, each with its attempts. */
export async function listNotifications(
  db: Kysely<DB>,
  projectId: number,
  page: { limit: number; offset: number; status?: NotificationStatus | undefined },
): Promise<NotificationView[]> {
  let query = db.selectFrom("notifications").selectAll().where("project_id", "=", projectId);
  if (page.status) query = query.where("status", "=", page.status);
  const rows = await query.orderBy("id", "desc").limit(page.limit).offset(page.offset).execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom("notification_attempts")
    .selectAll()
    .where(
      "notification_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("notification_id")
    .orderBy("attempt")
    .execute();
  const byId = new Map<string, NotificationView["attempt_log"]>();
  for (const a of attempts) {
    const list = byId.get(String(a.notification_id)) ?? [];
    list.push({
      attempt: a.attempt,
      started_at: new Date(a.started_at).toISOString(),
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
      ...(a.refused_status !== null
        ? { refused_old_secret: { status_code: a.refused_status, duration_ms: a.refused_ms ?? 0 } }
        : {}),
    });
    byId.set(String(a.notification_id), list);
  }
  return rows.map((r) => ({
    id: Number(r.id),
    message_id: r.message_id,
    type: r.type,
    status: r.status,
    address_id: r.address_id === null ? null : Number(r.address_id),
    chain_id: r.chain_id,
    tx_hash: r.tx_hash,
    attempts: r.attempts,
    next_attempt_at: r.status === "pending" ? new Date(r.next_attempt_at).toISOString() : null,
    delivered_at: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
    last_error: r.last_error,
    created_at: new Date(r.created_at).toISOString(),
    body: withId(JSON.parse(r.body), Number(r.id)),
    attempt_log: byId.get(String(r.id)) ?? [],
  }));
}

/** Redeliveries a project asked for in the minute before `at` (its limit: VIGIA_REDELIVERIES_PER_MINUTE). */
export async function recentRedeliveries(db: Kysely<DB>, projectId: number, at: Date): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("project_id", "=", projectId)
    .where("redelivered_at", ">", new Date(at.getTime() - 60_000))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * `redeliver` within the project's limit of redeliveries a minute (VIGIA_REDELIVERIES_PER_MINUTE): counted and
 * done under the project's lock, so that requests at once cannot all pass the limit. `limited` (with the count)
 * when the minute's redeliveries have reached it; else whether the project has such a message.
 */
export async function redeliverWithinLimit(
  db: Kysely<DB>,
  projectId: number,
  id: number,
  at: Date,
  perMinute: number,
): Promise<{ limited: number } | { found: boolean }> {
  return db.transaction().execute(async (trx) => {
    await capLock("notification_redeliveries", projectId).execute(trx);
    const recent = await recentRedeliveries(trx, projectId, at);
    if (recent >= perMinute) return { limited: recent };
    return { found: await redeliver(trx, projectId, id, at) };
  });
}

/**
 * Sends a delivered or failed message again, from now, with a fresh retry schedule and the same message id. A
 * message still pending or being delivered is left as it is. false when the project has no such message.
 */
export async function redeliver(db: Kysely<DB>, projectId: number, id: number, at: Date): Promise<boolean> {
  const exists = await db
    .selectFrom("notifications")
    .select("id")
    .where("project_id", "=", projectId)
    .where("id", "=", String(id))
    .executeTakeFirst();
  if (!exists) return false;
  await db
    .updateTable("notifications")
    .set({
      status: "pending",
      next_attempt_at: at,
      round_start: sql`attempts`,
      lease_until: null,
      redelivered_at: at,
    })
    .where("id", "=", String(id))
    .where("status", "in", ["delivered", "failed"])
    .execute();
  return true;
}

/** A notification body with its `data.id` (the row's id); other bodies as they are. */
export function withId(body: unknown, id: number): unknown {
  if (body && typeof body === "object" && (body as { type?: unknown }).type === "notification") {
    const data = (body as { data?: unknown }).data;
    if (data && typeof data === "object") return { ...(body as object), data: { ...(data as object), id } };
  }
  return body;
}
