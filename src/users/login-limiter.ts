// Failed sign-ins, counted in the database (so every process of a fleet and a restart agree) in fixed windows per
// e-mail and per client address. Past a limit, sign-ins of that e-mail or from that address answer 429 with
// Retry-After until the window ends; a successful sign-in clears the e-mail's count.
//
// An attacker who knows an e-mail could keep it limited window after window. So a browser that has signed in to the
// account before carries a device cookie (signed with the server secret, naming the person): with it, the e-mail's
// limit does not apply, only a limit of its own per device (OWASP's "device cookies"). The person keeps signing in
// from their own browser whatever a guesser does; a guesser has no such cookie.
import { sql } from "kysely";
import { constantTimeEqual, hmacHex } from "../platform/crypto/secrets.ts";
import type { UsersContext } from "./context.ts";

export const DEVICE_COOKIE = "vigia_device";

const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;

/** A device cookie's value for a person: `<userId>.<random>.<hmac>`. */
export function deviceCookie(ctx: UsersContext, userId: number, random: string): string {
  const body = `${userId}.${random}`;
  return `${body}.${hmacHex(ctx.serverKeys.lookup, `device:${body}`).slice(0, 32)}`;
}

/** The person and key a device cookie stands for, or undefined when it is not one this service signed. */
export function readDeviceCookie(
  ctx: UsersContext,
  value: string | undefined,
): { userId: number; key: string } | undefined {
  const [user, random, mac] = value?.split(".") ?? [];
  if (!user || !random || !mac || !/^\d+$/.test(user)) return undefined;
  const expected = hmacHex(ctx.serverKeys.lookup, `device:${user}.${random}`).slice(0, 32);
  if (!constantTimeEqual(mac, expected)) return undefined;
  return { userId: Number(user), key: `device:${user}.${random}` };
}

export interface LoginAttempt {
  email: string;
  address: string;
  /** the device key of a valid device cookie of the account this e-mail names, when the browser sent one */
  device?: string;
}

/** The keys an attempt counts against, with their limits. */
function keysOf(ctx: UsersContext, attempt: LoginAttempt): { key: string; max: number }[] {
  return [
    { key: addressKey(attempt.address), max: ctx.logins.perAddress },
    attempt.device
      ? { key: attempt.device, max: ctx.logins.perEmail }
      : { key: emailKey(attempt.email), max: ctx.logins.perEmail },
  ];
}

/** Seconds until the attempt may be made, or 0 when it may be made now. */
export async function loginBlockedFor(ctx: UsersContext, attempt: LoginAttempt): Promise<number> {
  const limits = keysOf(ctx, attempt);
  const rows = await ctx.db
    .selectFrom("login_failures")
    .select(["key", "window_start", "failures"])
    .where(
      "key",
      "in",
      limits.map((l) => l.key),
    )
    .execute();
  const now = ctx.now();
  let wait = 0;
  for (const row of rows) {
    const max = limits.find((l) => l.key === row.key)?.max ?? 0;
    const end = row.window_start.getTime() + ctx.logins.windowMs;
    if (now < end && row.failures >= max) wait = Math.max(wait, Math.ceil((end - now) / 1000));
  }
  return wait;
}

/** Counts a failed attempt against its e-mail (or device) and its address. */
export async function loginFailed(ctx: UsersContext, attempt: LoginAttempt): Promise<void> {
  const now = new Date(ctx.now());
  const windowStart = new Date(ctx.now() - ctx.logins.windowMs);
  for (const { key } of keysOf(ctx, attempt)) {
    await ctx.db
      .insertInto("login_failures")
      .values({ key, window_start: now, failures: 1 })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          window_start: sql`CASE WHEN login_failures.window_start <= ${windowStart} THEN ${now} ELSE login_failures.window_start END`,
          failures: sql`CASE WHEN login_failures.window_start <= ${windowStart} THEN 1 ELSE login_failures.failures + 1 END`,
        }),
      )
      .execute();
  }
  // Windows long past are deleted now and then, so the table holds only the current ones.
  if (Math.random() < 0.05)
    await ctx.db.deleteFrom("login_failures").where("window_start", "<", windowStart).execute();
}

/** A successful sign-in clears its e-mail's and its device's failures. */
export async function loginSucceeded(ctx: UsersContext, attempt: LoginAttempt): Promise<void> {
  const keys = [emailKey(attempt.email), ...(attempt.device ? [attempt.device] : [])];
  await ctx.db.deleteFrom("login_failures").where("key", "in", keys).execute();
}
