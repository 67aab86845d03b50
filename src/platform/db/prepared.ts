// Opt-in server-side prepared statements on PostgreSQL. A statement whose text starts with PREPARED (a comment)
// is sent by node-postgres as a named statement, named by a hash of its text: each pooled connection parses and
// plans it once and then only binds and executes it. Worth it for small, hot, complex statements (the risk
// expansion's layer read), whose planning costs more than running them for an address with a few transfers.
// Opt-in, because PostgreSQL may switch a prepared statement to a generic plan after five executions.
// Not through the PGlite socket bridge: its connections share one backend session, where two connections preparing
// the same name would collide. The embedded PGlite prepares marked statements itself (pglite-prepared.ts).
import crypto from "node:crypto";
import type pg from "pg";

/** Put first in a statement's text to have it prepared once per connection. */
export const PREPARED = "/*prepared*/ ";

const names = new Map<string, string>();

/** The statement's name: the same text always gets the same name. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `p_${crypto.createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/** The pool Kysely's PostgresDialect uses, with clients that send marked statements as named ones. */
export function preparingPool(pool: pg.Pool): Pick<pg.Pool, "connect" | "end"> {
  return {
    connect: (async () => {
      const client = await pool.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      return new Proxy(client, {
        get(target, property, receiver) {
          if (property !== "query") return Reflect.get(target, property, receiver);
          return (text: unknown, values?: unknown[]) =>
            typeof text === "string" && text.startsWith(PREPARED)
              ? query({ name: statementName(text), text, values })
              : query(text, values);
        },
      });
    }) as pg.Pool["connect"],
    end: (() => pool.end()) as pg.Pool["end"],
  };
}
