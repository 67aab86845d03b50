// Browser sessions: a random id of 256 bits in the cookie, only its SHA-256 in the database; an idle end (last seen
// plus the idle time) and an absolute end; revoked at sign-out, and all of a person's at once when the person is
// disabled or changes role (the next request signs in again with what the account now is).
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { SessionPrincipal } from "../platform/http/auth.ts";
import type { DB } from "../schema.ts";
import type { UsersContext } from "./context.ts";

const digest = (sessionId: string) => crypto.createHash("sha256").update(sessionId).digest("hex");

/** Last-seen is written at most this often per session: the idle end moves in steps of it. */
const TOUCH_EVERY_MS = 60_000;

export interface NewSession {
  /** the cookie's value (never stored) */
  id: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function startSession(
  ctx: UsersContext,
  userId: number,
  method: "password" | "oidc",
): Promise<NewSession> {
  const id = crypto.randomBytes(32).toString("base64url");
  const csrfToken = crypto.randomBytes(32).toString("base64url");
  const now = new Date(ctx.now());
  const expiresAt = new Date(now.getTime() + ctx.sessions.maxMs);
  await ctx.db
    .insertInto("user_sessions")
    .values({
      id_hash: digest(id),
      user_id: userId,
      csrf_token: csrfToken,
      method,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
    })
    .execute();
  return { id, csrfToken, expiresAt };
}

/**
 * The principal of a session cookie, or undefined when the session is unknown, revoked, idle for too long, past its
 * absolute end, or its person is disabled. Moves the idle end.
 */
export async function resolveSession(
  ctx: UsersContext,
  sessionId: string,
): Promise<SessionPrincipal | undefined> {
  const row = await ctx.db
    .selectFrom("user_sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select([
      "s.id_hash",
      "s.csrf_token",
      "s.last_seen_at",
      "s.expires_at",
      "s.revoked_at",
      "u.id as user_id",
      "u.project_id",
      "u.role",
      "u.lang",
      "u.time_zone",
      "u.disabled_at",
    ])
    .where("s.id_hash", "=", digest(sessionId))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.disabled_at !== null) return undefined;
  const now = ctx.now();
  if (now >= row.expires_at.getTime() || now >= row.last_seen_at.getTime() + ctx.sessions.idleMs)
    return undefined;
  if (now - row.last_seen_at.getTime() >= TOUCH_EVERY_MS)
    await ctx.db
      .updateTable("user_sessions")
      .set({ last_seen_at: new Date(now) })
      .where("id_hash", "=", row.id_hash)
      .execute();
  return {
    projectId: row.project_id,
    role: row.role,
    keyId: null,
    userId: row.user_id,
    lang: row.lang,
    timeZone: row.time_zone,
    csrfToken: row.csrf_token,
  };
}

/** The CSRF token of a live session (for GET /auth/session), or undefined. */
export async function sessionToken(ctx: UsersContext, sessionId: string): Promise<string | undefined> {
  return (await resolveSession(ctx, sessionId))?.csrfToken;
}

/** Ends one session (sign-out). */
export async function endSession(ctx: UsersContext, sessionId: string): Promise<void> {
  await ctx.db
    .updateTable("user_sessions")
    .set({ revoked_at: new Date(ctx.now()) })
    .where("id_hash", "=", digest(sessionId))
    .where("revoked_at", "is", null)
    .execute();
}

/** Ends every session of a person (disabled, role changed, password changed), in the caller's transaction. */
export async function endSessionsOf(
  db: Kysely<DB>,
  userId: number,
  at: Date,
  except?: string,
): Promise<void> {
  let query = db
    .updateTable("user_sessions")
    .set({ revoked_at: at })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (except !== undefined) query = query.where("id_hash", "!=", digest(except));
  await query.execute();
}

/** Sessions past their absolute end for a day are deleted (called now and then by the sign-in). */
export async function pruneSessions(ctx: UsersContext): Promise<void> {
  await ctx.db
    .deleteFrom("user_sessions")
    .where("expires_at", "<", new Date(ctx.now() - 86_400_000))
    .execute();
}
