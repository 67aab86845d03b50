// What the users feature needs from the composition root.
import type { Kysely } from "kysely";
import type { Config } from "../platform/config.ts";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import type { DB } from "../schema.ts";
import type { OidcSettings } from "./oidc.ts";

export interface UsersContext {
  db: Kysely<DB>;
  serverKeys: ServerKeys;
  /** The clock of sessions, set-password links and the sign-in limit (tests move it). */
  now: () => number;
  /** The service's absolute base URL: set-password links and the default OpenID Connect redirect are built on it. */
  publicUrl: string;
  sessions: { idleMs: number; maxMs: number };
  logins: { perEmail: number; perAddress: number; windowMs: number };
  /** Sign-in through an OpenID Connect provider, when configured. */
  oidc: OidcSettings | undefined;
}

/** The room's context from the configuration: the service's and the `vigia users` commands' alike. */
export function usersContextOf(
  config: Config,
  db: Kysely<DB>,
  serverKeys: ServerKeys,
  now: () => number = Date.now,
): UsersContext {
  return {
    db,
    serverKeys,
    now,
    publicUrl: config.publicUrl,
    sessions: { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs },
    logins: {
      perEmail: config.loginFailuresPerEmail,
      perAddress: config.loginFailuresPerAddress,
      windowMs: config.loginWindowMs,
    },
    oidc: config.oidc,
  };
}
