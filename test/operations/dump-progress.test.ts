// Progress of `vigia export` and `vigia import-db` where stderr is no terminal (a log): the export counts the rows
// of its snapshot first and says how many of them are written, with the share, the rate and the time left; the
// import says how much of the file it has read, in bytes of its size (the rows' total is only at the file's end).
// Each ends with a line saying what was done.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createKey, createProject } from "../../src/keys/index.ts";
import { exportStore } from "../../src/operations/dump/export.ts";
import { importStore, readHeader } from "../../src/operations/dump/import.ts";
import { SEALED_COLUMNS } from "../../src/operations/sealed-columns.ts";
import { deriveKeys } from "../../src/platform/crypto/secrets.ts";
import { commandProgress } from "../../src/platform/progress.ts";
import { chooseFileStore } from "../../src/platform/storage/index.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { TEST_SECRET } from "../support/service.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-dump-progress-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A log that keeps its lines, as a file or journald would. */
function log() {
  const lines: string[] = [];
  return { lines, stream: { isTTY: false, write: (text: string) => lines.push(text.trimEnd()) > 0 } };
}

const STAMP = /^\d{4}-\d\d-\d\dT[\d:.]+Z /;

describe("a whole store's move, where stderr is a log", () => {
  it("says the rows exported of the snapshot's count, then the bytes imported of the file's size", async () => {
    const source = await openTestDatabase();
    const target = await openTestDatabase();
    try {
      const keys = { db: source.db, serverKeys: deriveKeys(TEST_SECRET) };
      for (let i = 0; i < 3; i++) {
        const { projectId } = await createProject(keys, { name: `Exchange ${i}` }, { kind: "cli" });
        await createKey(keys, projectId, { label: "dev", role: "developer" }, { kind: "cli" });
      }
      const file = path.join(dir, "store.json.gz");
      const exported = log();
      const report = await exportStore(
        source.db as unknown as Kysely<unknown>,
        chooseFileStore({ fileStore: "database", dataDir: "memory://" }, source),
        {
          file,
          migrations: [],
          secret: { current: TEST_SECRET, previous: [] },
          rows: commandProgress("export", { stream: exported.stream, logEveryMs: 0 }),
        },
      );
      const rows = Object.values(report.tables).reduce((a, b) => a + b, 0);
      expect(rows).toBeGreaterThan(10);
      const total = rows.toLocaleString("en-US");
      for (const line of exported.lines) expect(line).toMatch(STAMP);
      expect(exported.lines.some((l) => l.includes(`export: 0 of ${total} rows (0.0 %)`))).toBe(true);
      expect(
        exported.lines.some((l) => /export: [\d,]+ of [\d,]+ rows \(\d+\.\d %\), [\d,]+ rows\/s/.test(l)),
      ).toBe(true);
      expect(exported.lines.at(-1)).toMatch(new RegExp(`export: done, ${total} rows in \\d+ s$`));

      const imported = log();
      const header = await readHeader(file);
      await importStore(target.db as unknown as Kysely<unknown>, {
        file,
        header,
        migrations: [],
        keys: deriveKeys(TEST_SECRET),
        reseal: false,
        sealed: SEALED_COLUMNS,
        files: (trx) =>
          chooseFileStore({ fileStore: "database", dataDir: "memory://" }, { kind: "postgres", db: trx }),
        read: commandProgress("import-db", { unit: "bytes", stream: imported.stream, logEveryMs: 0 }),
      });
      const size = fs.statSync(file).size;
      expect(imported.lines.some((l) => / of [\d.]+ (B|KiB|MiB) \(100\.0 %\)/.test(l))).toBe(true);
      expect(imported.lines.at(-1)).toMatch(/import-db: done, [\d.]+ (B|KiB|MiB) in \d+ s$/);
      expect(size).toBeGreaterThan(0);
    } finally {
      await source.drop();
      await target.drop();
    }
  });
});
