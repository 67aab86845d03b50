// What a short command (`vigia lists import`, `vigia projects create`, ...) says when the database it talks to goes
// away: the running `vigia serve` whose socket bridge it uses stopped, or PostgreSQL closed the connection or cannot
// be reached. node-postgres reports that as ECONNRESET, "Connection terminated unexpectedly", "Client has
// encountered a connection error and is not queryable" and the like, none of which tells the operator what happened
// or what to do; this turns them into one sentence that does.
import type { DatabaseKind } from "./open.ts";

/** Socket errors that mean the other end is gone or was never there. */
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** The server's own goodbyes: admin_shutdown, crash_shutdown, cannot_connect_now and the connection exceptions. */
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006"]);
/** node-postgres's messages for a connection that ended under it. */
const MESSAGES =
  /Connection terminated|not queryable|Connection ended unexpectedly|server closed the connection|socket hang up/i;

const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** The error's code or cause's code (node-postgres sometimes wraps the socket error). */
function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether `error` says the database connection went away (or could not be made). */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (code && (NETWORK_CODES.has(code) || SQLSTATES.has(code))) return true;
  return MESSAGES.test(error.message);
}

/** A PostgreSQL URL as it may be shown: without its password. */
export function redactedUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "DATABASE_URL";
  }
}

export interface CommandTarget {
  /** how the command reached the database, when it got that far */
  kind: DatabaseKind | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
}

/**
 * The one-line error for a lost connection (what happened, that an unfinished transaction, such as an import, kept
 * nothing, and what to do), or `error` itself when it is something else.
 */
export function explainConnectionLost(error: unknown, target: CommandTarget): unknown {
  // The embedded database in this process has no connection to lose.
  if (target.kind === "pglite" || !isConnectionLost(error)) return error;
  const detail = codeOf(error) ?? (error as Error).message;
  const kept = "nothing of a transaction it had not finished was kept (an import is all or nothing)";
  if (target.databaseUrl) {
    const at = redactedUrl(target.databaseUrl);
    const code = codeOf(error);
    if (target.kind === undefined && code && NEVER_CONNECTED.has(code))
      return new Error(
        `cannot reach the database at ${at} (${detail}): check that PostgreSQL is running there and that DATABASE_URL names it, then run the command again`,
      );
    return new Error(
      `the database at ${at} closed the connection before the command finished (${detail}); ${kept}. Check that PostgreSQL is up and reachable, then run the command again`,
    );
  }
  return new Error(
    `the running \`vigia serve\` on ${target.dataDir} closed the connection before the command finished (${detail}): the service stopped or restarted; ${kept}. Run the command again once the service is back, or while no service runs on that data dir (the command then opens it itself)`,
  );
}
