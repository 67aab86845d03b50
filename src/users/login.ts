// Signing in with an e-mail and a password (and the TOTP code when the account has one). The same answer, 401,
// whether the e-mail, the password or the code was wrong; a password is checked (against a decoy hash when the
// account does not exist) so the time taken does not tell either. Failures are limited per e-mail (or device) and
// per address (login-limiter.ts).
import { sql } from "kysely";
import { unseal } from "../platform/crypto/secrets.ts";
import { actorName, writeAudit } from "../projects/index.ts";
import type { UsersContext } from "./context.ts";
import { userError } from "./errors.ts";
import {
  type LoginAttempt,
  loginBlockedFor,
  loginFailed,
  loginSucceeded,
  readDeviceCookie,
} from "./login-limiter.ts";
import { decoyHash, hashPassword, needsRehash, verifyPassword } from "./password-hash.ts";
import { findUser, type UserRecord } from "./read.ts";
import { type NewSession, pruneSessions, startSession } from "./sessions.ts";
import { acceptedStep } from "./totp.ts";

export interface Credentials {
  email: string;
  password: string;
  totp?: string;
}

export type LoginResult =
  | { kind: "signed_in"; user: UserRecord; session: NewSession }
  /** the password was right and the account has TOTP: the code must be sent with it */
  | { kind: "totp_required" };

/** The active account of an e-mail, in any project (one account belongs to one project). */
export async function accountByEmail(ctx: UsersContext, email: string) {
  return ctx.db
    .selectFrom("users")
    .select(["id", "project_id", "password_hash", "totp_secret_enc", "totp_last_step", "disabled_at"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function login(
  ctx: UsersContext,
  credentials: Credentials,
  from: { address: string; deviceCookie: string | undefined },
): Promise<LoginResult> {
  const account = await accountByEmail(ctx, credentials.email);
  const device = readDeviceCookie(ctx, from.deviceCookie);
  const attempt: LoginAttempt = {
    email: credentials.email,
    address: from.address,
    ...(device && account && device.userId === account.id ? { device: device.key } : {}),
  };
  const wait = await loginBlockedFor(ctx, attempt);
  if (wait > 0) throw userError("rate_limited", "login.limited", { seconds: wait }, { retryAfter: wait });
  const usable =
    account && account.disabled_at === null && account.password_hash !== null ? account : undefined;
  const passwordRight = await verifyPassword(
    credentials.password,
    usable?.password_hash ?? (await decoyHash()),
  );
  const fail = async () => {
    await loginFailed(ctx, attempt);
    return userError("unauthorized", "login.failed");
  };
  if (!usable || !passwordRight) throw await fail();
  if (usable.totp_secret_enc !== null) {
    if (!credentials.totp) return { kind: "totp_required" };
    const step = acceptedStep(
      unseal(ctx.serverKeys, usable.totp_secret_enc),
      credentials.totp,
      ctx.now(),
      usable.totp_last_step === null ? null : Number(usable.totp_last_step),
    );
    // The step is taken in one statement: of two sign-ins with one code at once, one wins.
    const taken =
      step !== undefined &&
      Number(
        (
          await ctx.db
            .updateTable("users")
            .set({ totp_last_step: step })
            .where("id", "=", usable.id)
            .where((eb) =>
              eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", sql<string>`${step}`)]),
            )
            .executeTakeFirst()
        ).numUpdatedRows,
      ) === 1;
    if (!taken) throw await fail();
  }
  await loginSucceeded(ctx, attempt);
  if (needsRehash(usable.password_hash as string))
    await ctx.db
      .updateTable("users")
      .set({ password_hash: await hashPassword(credentials.password) })
      .where("id", "=", usable.id)
      .execute();
  return signedIn(ctx, usable.project_id, usable.id, "password");
}

/** Opens a session for a person whose identity was proven (a password, or the OpenID Connect provider). */
export async function signedIn(
  ctx: UsersContext,
  projectId: number,
  userId: number,
  method: "password" | "oidc",
): Promise<LoginResult & { kind: "signed_in" }> {
  const session = await startSession(ctx, userId, method);
  await writeAudit(ctx.db, {
    projectId,
    actor: actorName({ kind: "user", userId }),
    action: "user.signed_in",
    target: `user:${userId}`,
    details: { method },
  });
  if (Math.random() < 0.05) await pruneSessions(ctx);
  const user = await findUser(ctx.db, projectId, userId);
  if (!user) throw new Error(`user ${userId} vanished while signing in`);
  return { kind: "signed_in", user, session };
}
