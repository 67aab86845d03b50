// `vigia secret rotate` and `vigia secret reseal` (docs/operations.md, "Rotating the secret").
//
// On PostgreSQL the secret comes from the environment: the operator sets VIGIA_SECRET to a new one and
// VIGIA_SECRET_PREVIOUS to the old one on every process, restarts them, and runs `reseal` once. On the embedded
// database the secret is a file in the data dir, so `rotate` does it all while the service is stopped: a new
// secret, the old one kept in `secret.previous`, every stored value re-sealed.
import type { Command } from "commander";
import type { Kysely } from "kysely";
import type { KeysContext } from "../keys/index.ts";
import type { Config } from "../platform/config.ts";
import { type ResealReport, resealAll } from "../platform/crypto/reseal.ts";
import { deriveKeys, type ServerKeys } from "../platform/crypto/secrets.ts";
import { rotateEmbeddedSecret } from "../platform/crypto/server-secret.ts";
import type { Database } from "../platform/db/open.ts";
import { resignHeads } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { OperationRefused } from "./refused.ts";
import { SEALED_COLUMNS } from "./sealed-columns.ts";

export type WithKeys = <T>(
  fn: (ctx: { config: Config; database: Database<DB>; keys: KeysContext }) => Promise<T>,
) => Promise<T>;

async function reseal(db: Kysely<DB>, keys: ServerKeys): Promise<ResealReport & { auditHeads: number }> {
  const report = await resealAll(db as Kysely<unknown>, keys, SEALED_COLUMNS, (column, report) =>
    process.stderr.write(`re-sealed ${column}: ${report.resealed[column]}\n`),
  );
  // The audit chains' heads a previous secret signed, signed again: they stay verifiable once it is dropped.
  return { ...report, auditHeads: await resignHeads(db, keys) };
}

function summary(keys: ServerKeys, report: ResealReport & { auditHeads: number }) {
  const unreadable = Object.values(report.unreadable).reduce((a, b) => a + b, 0);
  return {
    keyId: keys.id,
    previousKeyIds: keys.previous.map((k) => k.id),
    resealed: Object.values(report.resealed).reduce((a, b) => a + b, 0),
    byColumn: report.resealed,
    auditHeadsResigned: report.auditHeads,
    // Values sealed by a secret this process was not given: set it in VIGIA_SECRET_PREVIOUS and run again.
    unreadable,
  };
}

/** Values no secret of this process opens stay sealed as they were: the command says so and fails (exit 1). */
function failIfUnreadable(report: ResealReport): void {
  const unreadable = Object.values(report.unreadable).reduce((a, b) => a + b, 0);
  if (unreadable > 0)
    throw new Error(
      `${unreadable} stored secrets were sealed by a secret this process was not given: add it to VIGIA_SECRET_PREVIOUS and run again`,
    );
}

export function registerSecretCommands(program: Command, withKeys: WithKeys): void {
  const secret = program
    .command("secret")
    .description("rotate the server secret and re-seal what it protects");

  secret
    .command("reseal")
    .description("re-seal every stored secret with the current secret (after a rotation)")
    .action(() =>
      withKeys(async ({ database, keys }) => {
        const report = await reseal(database.db, keys.serverKeys);
        process.stdout.write(`${JSON.stringify(summary(keys.serverKeys, report))}\n`);
        failIfUnreadable(report);
      }),
    );

  secret
    .command("rotate")
    .description(
      "embedded database: replace the generated secret, keep the old one, re-seal (service stopped)",
    )
    .action(() =>
      withKeys(async ({ config, database }) => {
        if (config.databaseUrl || config.secret)
          throw new OperationRefused(
            `the secret comes from VIGIA_SECRET here: set VIGIA_SECRET to a new secret and VIGIA_SECRET_PREVIOUS to the old one with the rotation time (old@${new Date().toISOString()}) on every process, restart them, then run \`vigia secret reseal\``,
          );
        if (database.kind !== "pglite")
          throw new OperationRefused(
            "a Vigía service is running on this data dir: stop it, rotate, then start it again",
          );
        const rotated = rotateEmbeddedSecret(config.dataDir);
        const keys = deriveKeys(rotated.secret, rotated.previous);
        const report = await reseal(database.db, keys);
        process.stdout.write(`${JSON.stringify({ rotated: true, ...summary(keys, report) })}\n`);
        failIfUnreadable(report);
      }),
    );
}
