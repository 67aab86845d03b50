// A project's people: created by an administrator (with a password, or a one-time link to set one), their role,
// name and being disabled changed; their own password, TOTP, language and time zone. Every change is audited; a
// person disabled or given another role has their sessions ended at once.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { isLang } from "../messages/index.ts";
import { seal, unseal } from "../platform/crypto/secrets.ts";
import type { Role } from "../platform/http/auth.ts";
import { type Actor, actorName, writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import type { UsersContext } from "./context.ts";
import { userError } from "./errors.ts";
import { hashPassword, verifyPassword } from "./password-hash.ts";
import { passwordProblem } from "./password-rules.ts";
import { findUser, type UserRecord } from "./read.ts";
import { endSessionsOf } from "./sessions.ts";
import { acceptedStep, newTotpSecret } from "./totp.ts";

/** How long a set-password link lasts. */
export const PASSWORD_LINK_MS = 72 * 3_600_000;

/** Whether the runtime knows the IANA zone (America/Mexico_City, UTC). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}

const tokenDigest = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

function checkPassword(password: string, person: { email: string; displayName: string }): void {
  const problem = passwordProblem(password, person);
  if (problem) throw userError("invalid_request", problem.id, problem.params, { path: "body/password" });
}

export interface NewUser {
  email: string;
  displayName: string;
  role: Role;
  password?: string;
}

/** The new person and, when no password was given, the one-time link that sets it. */
export async function createUser(
  ctx: UsersContext,
  projectId: number,
  input: NewUser,
  actor: Actor,
): Promise<{ user: UserRecord; setPasswordUrl?: string }> {
  const email = input.email.trim();
  const displayName = input.displayName.trim();
  if (input.password !== undefined) checkPassword(input.password, { email, displayName });
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;
  const token = input.password === undefined ? crypto.randomBytes(32).toString("base64url") : undefined;
  const id = await ctx.db.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
      .executeTakeFirst();
    if (taken) throw userError("conflict", "user.email_taken", undefined, { path: "body/email" });
    const { id } = await trx
      .insertInto("users")
      .values({
        project_id: projectId,
        email,
        display_name: displayName,
        role: input.role,
        password_hash: passwordHash,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (token) await insertPasswordLink(trx, ctx, id, token);
    await writeAudit(trx, {
      projectId,
      actor: actorName(actor),
      action: "user.created",
      target: `user:${id}`,
      details: { email, displayName, role: input.role },
    });
    return id;
  });
  const user = await findUser(ctx.db, projectId, id);
  if (!user) throw new Error(`user ${id} vanished after its creation`);
  return { user, ...(token ? { setPasswordUrl: passwordLinkUrl(ctx, token) } : {}) };
}

async function insertPasswordLink(trx: Kysely<DB>, ctx: UsersContext, userId: number, token: string) {
  const now = ctx.now();
  await trx
    .insertInto("user_password_tokens")
    .values({
      token_hash: tokenDigest(token),
      user_id: userId,
      created_at: new Date(now),
      expires_at: new Date(now + PASSWORD_LINK_MS),
    })
    .execute();
}

/** The page that sets a password with a link's token (the token in the fragment: never sent in a request line). */
export const passwordLinkUrl = (ctx: UsersContext, token: string) =>
  `${ctx.publicUrl.replace(/\/+$/, "")}/app/login#set-password=${token}`;

/** A new one-time link for a person (an administrator's `vigia users link`, or a lost link). */
export async function newPasswordLink(ctx: UsersContext, userId: number): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await insertPasswordLink(ctx.db, ctx, userId, token);
  return passwordLinkUrl(ctx, token);
}

/** Sets the password of the link's person; the link is used up, and the person's other sessions end. */
export async function setPasswordWithLink(
  ctx: UsersContext,
  token: string,
  password: string,
): Promise<UserRecord> {
  const now = new Date(ctx.now());
  const link = await ctx.db
    .selectFrom("user_password_tokens as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select([
      "t.token_hash",
      "t.expires_at",
      "t.used_at",
      "u.id",
      "u.project_id",
      "u.email",
      "u.display_name",
      "u.disabled_at",
    ])
    .where("t.token_hash", "=", tokenDigest(token))
    .executeTakeFirst();
  if (!link || link.used_at !== null || link.disabled_at !== null || link.expires_at <= now)
    throw userError("invalid_request", "password.link_invalid", undefined, { path: "body/token" });
  checkPassword(password, { email: link.email, displayName: link.display_name });
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable("user_password_tokens")
      .set({ used_at: now })
      .where("token_hash", "=", link.token_hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1)
      throw userError("invalid_request", "password.link_invalid", undefined, { path: "body/token" });
    await trx
      .updateTable("users")
      .set({ password_hash: hash, updated_at: now })
      .where("id", "=", link.id)
      .execute();
    await endSessionsOf(trx, link.id, now);
    await writeAudit(trx, {
      projectId: link.project_id,
      actor: `user:${link.id}`,
      action: "user.password_set",
      target: `user:${link.id}`,
    });
  });
  const user = await findUser(ctx.db, link.project_id, link.id);
  if (!user) throw new Error(`user ${link.id} vanished`);
  return user;
}

/** A person's own change of password: the current one first; the person's other sessions end. */
export async function changePassword(
  ctx: UsersContext,
  user: { id: number; projectId: number },
  current: string,
  next: string,
  keepSession: string | undefined,
): Promise<void> {
  const row = await ctx.db
    .selectFrom("users")
    .select(["password_hash", "email", "display_name"])
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  if (!row.password_hash || !(await verifyPassword(current, row.password_hash)))
    throw userError("invalid_request", "password.wrong_current", undefined, { path: "body/current" });
  checkPassword(next, { email: row.email, displayName: row.display_name });
  const hash = await hashPassword(next);
  const now = new Date(ctx.now());
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: hash, updated_at: now })
      .where("id", "=", user.id)
      .execute();
    await endSessionsOf(trx, user.id, now, keepSession);
    await writeAudit(trx, {
      projectId: user.projectId,
      actor: `user:${user.id}`,
      action: "user.password_changed",
      target: `user:${user.id}`,
    });
  });
}

export interface UserPatch {
  role?: Role;
  displayName?: string;
  disabled?: boolean;
}

/** An administrator's change of a person; a new role or disabling ends the person's sessions. */
export async function updateUser(
  ctx: UsersContext,
  projectId: number,
  userId: number,
  patch: UserPatch,
  actor: Actor,
): Promise<UserRecord> {
  const now = new Date(ctx.now());
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("users")
      .select(["role", "display_name", "disabled_at"])
      .where("project_id", "=", projectId)
      .where("id", "=", userId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw userError("not_found", "user.not_found");
    const losesAdmin =
      row.role === "admin" &&
      row.disabled_at === null &&
      ((patch.role !== undefined && patch.role !== "admin") || patch.disabled === true);
    if (losesAdmin) {
      // Keys can administer a project too, but a project whose people can no longer administer it is a trap.
      const admins = await trx
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("project_id", "=", projectId)
        .where("role", "=", "admin")
        .where("disabled_at", "is", null)
        .executeTakeFirstOrThrow();
      if (Number(admins.n) <= 1) throw userError("conflict", "user.last_admin");
    }
    const changes: Record<string, unknown> = {};
    if (patch.role !== undefined && patch.role !== row.role) changes.role = patch.role;
    if (patch.displayName !== undefined && patch.displayName.trim() !== row.display_name)
      changes.displayName = patch.displayName.trim();
    if (patch.disabled !== undefined && patch.disabled !== (row.disabled_at !== null))
      changes.disabled = patch.disabled;
    if (Object.keys(changes).length === 0) return;
    await trx
      .updateTable("users")
      .set({
        ...(changes.role !== undefined ? { role: changes.role as Role } : {}),
        ...(changes.displayName !== undefined ? { display_name: changes.displayName as string } : {}),
        ...(changes.disabled !== undefined ? { disabled_at: changes.disabled ? now : null } : {}),
        updated_at: now,
      })
      .where("id", "=", userId)
      .execute();
    if (changes.role !== undefined || changes.disabled === true) await endSessionsOf(trx, userId, now);
    await writeAudit(trx, {
      projectId,
      actor: actorName(actor),
      action: "user.updated",
      target: `user:${userId}`,
      details: changes,
    });
  });
  const user = await findUser(ctx.db, projectId, userId);
  if (!user) throw userError("not_found", "user.not_found");
  return user;
}

/** A person's own language and time zone. */
export async function updateSettings(
  ctx: UsersContext,
  user: { id: number; projectId: number },
  settings: { lang?: string; timeZone?: string },
): Promise<UserRecord> {
  if (settings.lang !== undefined && !isLang(settings.lang))
    throw userError(
      "invalid_request",
      "error.invalid_request",
      { message: "lang must be es or en" },
      { path: "body/lang" },
    );
  if (settings.timeZone !== undefined && !isTimeZone(settings.timeZone))
    throw userError(
      "invalid_request",
      "user.time_zone_invalid",
      { zone: settings.timeZone },
      { path: "body/timeZone" },
    );
  await ctx.db
    .updateTable("users")
    .set({
      ...(settings.lang !== undefined ? { lang: settings.lang as "es" | "en" } : {}),
      ...(settings.timeZone !== undefined ? { time_zone: settings.timeZone } : {}),
      updated_at: new Date(ctx.now()),
    })
    .where("id", "=", user.id)
    .execute();
  const found = await findUser(ctx.db, user.projectId, user.id);
  if (!found) throw userError("not_found", "user.not_found");
  return found;
}

/** Starts setting up TOTP: a new secret, kept pending until a code of it is entered. */
export async function startTotp(
  ctx: UsersContext,
  user: UserRecord,
): Promise<{ secret: string; uri: string }> {
  if (user.totpEnabled) throw userError("conflict", "totp.already_enabled");
  const offered = newTotpSecret(user.email);
  await ctx.db
    .updateTable("users")
    .set({ totp_pending_enc: seal(ctx.serverKeys, offered.secret) })
    .where("id", "=", user.id)
    .execute();
  return offered;
}

/** Turns TOTP on with a valid code of the pending secret. */
export async function enableTotp(ctx: UsersContext, user: UserRecord, code: string): Promise<void> {
  const row = await ctx.db
    .selectFrom("users")
    .select(["totp_pending_enc", "totp_secret_enc"])
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  if (row.totp_secret_enc) throw userError("conflict", "totp.already_enabled");
  if (!row.totp_pending_enc) throw userError("conflict", "totp.not_started");
  const secret = unseal(ctx.serverKeys, row.totp_pending_enc);
  const step = acceptedStep(secret, code, ctx.now(), null);
  if (step === undefined)
    throw userError("invalid_request", "totp.invalid", undefined, { path: "body/code" });
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ totp_secret_enc: row.totp_pending_enc, totp_pending_enc: null, totp_last_step: step })
      .where("id", "=", user.id)
      .execute();
    await writeAudit(trx, {
      projectId: user.projectId,
      actor: `user:${user.id}`,
      action: "user.totp_enabled",
      target: `user:${user.id}`,
    });
  });
}
