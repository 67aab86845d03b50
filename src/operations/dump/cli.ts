// `vigia export FILE` and `vigia import-db FILE` (docs/operations.md, "Moving to PostgreSQL"): a whole store, from
// the embedded database to PostgreSQL (or any store to an empty one of the same version), with its files and its
// secret, so that API keys, webhook secrets and signed URLs work the same after the move.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CompiledQuery, type Kysely } from "kysely";
import type { Config } from "../../platform/config.ts";
import { deriveKeys } from "../../platform/crypto/secrets.ts";
import { adoptEmbeddedSecret, previousSecrets, serverSecret } from "../../platform/crypto/server-secret.ts";
import { commandProgress } from "../../platform/progress.ts";
import { chooseFileStore } from "../../platform/storage/index.ts";
import { resignHeads } from "../../projects/index.ts";
import { SEALED_COLUMNS } from "../sealed-columns.ts";
import type { WithKeys } from "../secret-cli.ts";
import { exportStore } from "./export.ts";
import { importStore, readHeader } from "./import.ts";

// A table done, on its own line: on a terminal the live progress line is wiped first and drawn again after it.
const progress = (message: string) =>
  process.stderr.write(`${process.stderr.isTTY ? "\r\x1b[K" : ""}${message}\n`);

async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await db.executeQuery<{ name: string }>(
    CompiledQuery.raw("SELECT name FROM schema_migrations ORDER BY version", []),
  );
  return rows.map((r) => r.name);
}

export function registerDumpCommands(program: Command, withKeys: WithKeys, config: () => Config): void {
  program
    .command("export")
    .argument(
      "<file>",
      "where to write the export (gzip'd; it holds the secret: keep it as safe as the database)",
    )
    .description("write the whole store (data, report files, secret) to one file, for import-db")
    .action((file: string) =>
      withKeys(async ({ config, database }) => {
        const started = Date.now();
        const db = database.db as unknown as Kysely<unknown>;
        const report = await exportStore(db, chooseFileStore(config, database), {
          file,
          migrations: await appliedMigrations(db),
          secret: { current: serverSecret(config), previous: previousSecrets(config) },
          progress,
          rows: commandProgress("export"),
        });
        process.stdout.write(
          `${JSON.stringify({ exported: path.resolve(file), ...report, seconds: (Date.now() - started) / 1000 })}\n`,
        );
      }),
    );

  program
    .command("import-db")
    .argument("<file>", "an export written by `vigia export`")
    .description("load an export into this (empty) store: DATABASE_URL for PostgreSQL, else the data dir")
    .addHelpText(
      "after",
      "\nOn PostgreSQL, set VIGIA_SECRET to the exported store's secret (an embedded store's is the file data/secret)\nto keep signed URLs valid; under another secret every stored secret is re-sealed with it:\n  DATABASE_URL=postgres://vigia@db/vigia VIGIA_SECRET=\"$(cat data/secret)\" vigia import-db vigia-store.json.gz",
    )
    .action(async (file: string) => {
      if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
      const header = await readHeader(file);
      // A fresh embedded data dir takes the exported secret as its own.
      const target = config();
      if (!target.databaseUrl && !target.secret && target.dataDir !== "memory://")
        adoptEmbeddedSecret(target.dataDir, header.secret.current, header.secret.previous);
      await withKeys(async ({ config, database }) => {
        const started = Date.now();
        const db = database.db as unknown as Kysely<unknown>;
        const current = serverSecret(config);
        const same = current === header.secret.current;
        const exported = same ? header.secret.previous : [header.secret.current, ...header.secret.previous];
        const keys = deriveKeys(current, [...exported, ...previousSecrets(config)]);
        const report = await importStore(db, {
          file,
          header,
          migrations: await appliedMigrations(db),
          keys,
          reseal: !same,
          sealed: SEALED_COLUMNS,
          files: (trx) => chooseFileStore(config, { kind: database.kind, db: trx }),
          progress,
          read: commandProgress("import-db", { unit: "bytes" }),
        });
        // The audit chains' heads the exported secret signed, signed again with this store's (src/projects/audit-head.ts).
        if (!same) await resignHeads(database.db, keys);
        if (!same)
          progress(
            "This store's secret is not the exported one: every stored secret was re-sealed with it. Signed URLs made before the move are accepted only while VIGIA_SECRET_PREVIOUS holds the exported secret.",
          );
        process.stdout.write(
          `${JSON.stringify({ imported: path.resolve(file), ...report, secret: same ? "kept" : "re-sealed", seconds: (Date.now() - started) / 1000 })}\n`,
        );
      });
    });
}
