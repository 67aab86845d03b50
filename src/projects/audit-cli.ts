// `vigia audit verify` and `vigia audit head` (docs/operations.md, "The audit log"): the first checks every chain of
// the audit log against its links and its signed head (and against heads recorded elsewhere, `--head FILE`) and
// prints what it found as one JSON line, exiting 1 at a problem and naming the first; the second prints the chains'
// signed heads, for an outside witness to keep and give back to `verify --head` later.
import fs from "node:fs";
import type { Command } from "commander";
import type { Kysely } from "kysely";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import type { DB } from "../schema.ts";
import { listHeads } from "./audit-head.ts";
import { parseHeads, verifyAudit } from "./audit-verify.ts";

export type WithDb = <T>(
  fn: (ctx: { database: { db: Kysely<DB> }; keys: { serverKeys: ServerKeys } }) => Promise<T>,
) => Promise<T>;

export class AuditBroken extends Error {}

export function registerAuditCommand(program: Command, withDatabase: WithDb): void {
  const audit = program
    .command("audit")
    .description("the audit log, a hash chain per project with a signed head");
  audit
    .command("verify")
    .description(
      "recompute every entry's hash and link, in each project's chain, and check each chain against its signed head (and the heads of --head); exit 1 and name the first problem",
    )
    .option(
      "--head <file>",
      "heads printed earlier by `vigia audit head`: report chains cut short, taken back or sealed again since",
    )
    .action((opts: { head?: string }) => {
      // Read before the store is opened: a file that is not there fails at once.
      const witness = opts.head ? parseHeads(fs.readFileSync(opts.head, "utf8")) : undefined;
      return withDatabase(async ({ database, keys }) => {
        const report = await verifyAudit(database.db, {
          keys: keys.serverKeys,
          ...(witness ? { witness } : {}),
        });
        process.stdout.write(`${JSON.stringify({ intact: report.firstBroken === null, ...report })}\n`);
        if (report.firstBroken)
          throw new AuditBroken(
            `the audit log is broken: ${report.firstBroken.message}${report.problems.length > 1 ? ` (and ${report.problems.length - 1} more problem${report.problems.length > 2 ? "s" : ""})` : ""}`,
          );
      });
    });
  audit
    .command("head")
    .description(
      "print every chain's signed head (JSON): keep it where the database's administrators cannot write, and give it to `vigia audit verify --head` later",
    )
    .action(() =>
      withDatabase(async ({ database }) => {
        const heads = await listHeads(database.db);
        process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), heads })}\n`);
      }),
    );
}
