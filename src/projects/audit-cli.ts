// `vigia audit verify` (docs/operations.md, "The audit log"): checks every chain of the audit log and prints what
// it found as one JSON line; exits 1 at a broken link, naming the first.
import type { Command } from "commander";
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { verifyAudit } from "./audit-verify.ts";

export type WithDb = <T>(fn: (ctx: { database: { db: Kysely<DB> } }) => Promise<T>) => Promise<T>;

export class AuditBroken extends Error {}

export function registerAuditCommand(program: Command, withDatabase: WithDb): void {
  const audit = program.command("audit").description("the audit log, a hash chain per project");
  audit
    .command("verify")
    .description(
      "recompute every entry's hash and link, in each project's chain; exit 1 and name the first broken link",
    )
    .action(() =>
      withDatabase(async ({ database }) => {
        const report = await verifyAudit(database.db);
        process.stdout.write(`${JSON.stringify({ intact: report.firstBroken === null, ...report })}\n`);
        if (report.firstBroken)
          throw new AuditBroken(`the audit log is broken: ${report.firstBroken.message}`);
      }),
    );
}
