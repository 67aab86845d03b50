// `vigia export FILE`: the whole store in one file (format.ts), read in one snapshot (a REPEATABLE READ
// transaction), tables a page at a time in key order, then every file of the file store. Written to a temporary
// file beside FILE (this user's alone: it holds the secret) and renamed into place once complete.
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Kysely } from "kysely";
import { NO_PROGRESS, type Progress } from "../../platform/progress.ts";
import type { FileStore } from "../../platform/storage/index.ts";
import { queryRows, quoted, type StoreTable, storeTables } from "./catalog.ts";
import { type ControlLine, FORMAT, FORMAT_VERSION } from "./format.ts";

/** Rows read per statement. */
const PAGE = 2_000;

export interface ExportReport {
  tables: Record<string, number>;
  files: number;
  bytes: number;
}

/** A gzip'd line writer that respects the stream's back-pressure. */
function lineWriter(file: string) {
  const out = fs.createWriteStream(file, { mode: 0o600 });
  const gzip = zlib.createGzip({ level: 6 });
  gzip.pipe(out);
  let failed: Error | undefined;
  gzip.on("error", (e) => {
    failed = e;
  });
  out.on("error", (e) => {
    failed = e;
  });
  return {
    async write(line: string) {
      if (failed) throw failed;
      if (!gzip.write(`${line}\n`)) await once(gzip, "drain");
    },
    async close() {
      gzip.end();
      await once(out, "close");
      if (failed) throw failed;
    },
    abort() {
      gzip.destroy();
      out.destroy();
    },
  };
}

export async function exportStore(
  db: Kysely<unknown>,
  files: FileStore,
  options: {
    file: string;
    migrations: string[];
    secret: { current: string; previous: string[] };
    progress?: (message: string) => void;
    /** the rows written, of every table's count in the export's snapshot */
    rows?: Progress;
  },
): Promise<ExportReport> {
  const target = path.resolve(options.file);
  const temporary = `${target}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  const writer = lineWriter(temporary);
  const control = (line: ControlLine) => writer.write(JSON.stringify(line));
  const report: ExportReport = { tables: {}, files: 0, bytes: 0 };
  try {
    await control({
      $: FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      migrations: options.migrations,
      secret: options.secret,
    });
    await db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const tables = await storeTables(trx);
        // Counted in the snapshot the rows are read from: the total is what will be written.
        let total = 0;
        for (const table of tables) total += await countRows(trx, table);
        const rows = options.rows ?? NO_PROGRESS;
        let written = 0;
        rows.tick(0, total);
        for (const table of tables) {
          report.tables[table.name] = await exportTable(trx, table, writer.write, options.progress, (n) =>
            rows.tick(written + n),
          );
          written += report.tables[table.name] ?? 0;
        }
        rows.done();
      });
    for await (const filePath of files.list()) {
      const content = await files.get(filePath);
      if (!content) continue; // deleted since it was listed
      await control({ $: "file", path: filePath, content: content.toString("base64") });
      report.files++;
    }
    options.progress?.(`files: ${report.files}`);
    await control({ $: "end", tables: report.tables, files: report.files });
    await writer.close();
    fs.renameSync(temporary, target);
    report.bytes = fs.statSync(target).size;
    return report;
  } catch (error) {
    writer.abort();
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

async function countRows(db: Kysely<unknown>, table: StoreTable): Promise<number> {
  const [row] = await queryRows<{ n: string }>(db, `SELECT count(*)::text AS n FROM ${quoted(table.name)}`);
  return Number(row?.n ?? 0);
}

async function exportTable(
  db: Kysely<unknown>,
  table: StoreTable,
  write: (line: string) => Promise<void>,
  progress?: (message: string) => void,
  tick?: (rows: number) => void,
): Promise<number> {
  await write(JSON.stringify({ $: "table", name: table.name, columns: table.columns.map((c) => c.name) }));
  const keys = table.key.map((k) => quoted(k.name));
  const keyText = table.key.map((k, i) => `${quoted(k.name)}::text AS k${i}`).join(", ");
  const after = `(${keys.join(", ")}) > (${table.key.map((k, i) => `$${i + 1}::${k.type}`).join(", ")})`;
  let last: string[] | undefined;
  let count = 0;
  for (;;) {
    const text = `SELECT to_jsonb(t)::text AS row, ${keyText} FROM ${quoted(table.name)} t
      ${last ? `WHERE ${after}` : ""} ORDER BY ${keys.join(", ")} LIMIT ${PAGE}`;
    const page = await queryRows<Record<string, string>>(db, text, last ?? []);
    for (const r of page) await write(r.row as string);
    count += page.length;
    tick?.(count);
    if (page.length < PAGE) break;
    const end = page[page.length - 1] as Record<string, string>;
    last = table.key.map((_, i) => end[`k${i}`] as string);
  }
  await write(JSON.stringify({ $: "end-table", name: table.name, rows: count }));
  progress?.(`${table.name}: ${count.toLocaleString("en-US")} rows`);
  return count;
}
