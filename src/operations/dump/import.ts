// `vigia import-db FILE`: loads an export (format.ts) into an empty store of the same version, in one transaction:
// each table's rows in batches (the database parses each row's JSON itself, so no value passes through a
// JavaScript number), then the sequences of serial ids moved past the copied ones, then the files into this
// store's file store. Refused, before anything is written, when the store already holds data, when the versions
// differ, or when the file is cut short (its last line counts what it holds).
import fs from "node:fs";
import readline from "node:readline";
import zlib from "node:zlib";
import type { Kysely } from "kysely";
import { resealAll, type SealedColumn } from "../../platform/crypto/reseal.ts";
import type { ServerKeys } from "../../platform/crypto/secrets.ts";
import type { Progress } from "../../platform/progress.ts";
import type { FileStore } from "../../platform/storage/index.ts";
import { OperationRefused } from "../refused.ts";
import { queryRows, quoted, type StoreTable, seededTables, storeTables } from "./catalog.ts";
import {
  type EndLine,
  type FileLine,
  FORMAT,
  FORMAT_VERSION,
  type Header,
  isControl,
  type TableLine,
} from "./format.ts";

/** Rows per INSERT, and the most text one INSERT carries. */
const BATCH_ROWS = 2_000;
const BATCH_BYTES = 8 * 2 ** 20;

export interface ImportReport {
  tables: Record<string, number>;
  files: number;
  /** values re-sealed because this store's secret is not the exported one's */
  resealed: number;
}

/** A mistake in the file or the target that the operator must fix (exit 2). */
export class ImportRefused extends OperationRefused {}

/** The file's lines; `read` is told the bytes of the (compressed) file read so far, of its size. */
function lines(file: string, read?: Progress): AsyncIterableIterator<string> {
  const raw = fs.createReadStream(file);
  if (read) {
    const size = fs.statSync(file).size;
    let bytes = 0;
    raw.on("data", (chunk) => {
      bytes += chunk.length;
      read.tick(bytes, size);
    });
  }
  const input = raw.pipe(zlib.createGunzip());
  return readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
}

/** The header of an export file (its first line). */
export async function readHeader(file: string): Promise<Header> {
  const it = lines(file);
  try {
    const first = await it.next();
    const header = first.done ? undefined : (JSON.parse(first.value) as Header);
    if (header?.$ !== FORMAT) throw new ImportRefused(`${file} is not a Vigía export`);
    if (header.version !== FORMAT_VERSION)
      throw new ImportRefused(
        `${file} is an export of format ${header.version}; this Vigía reads ${FORMAT_VERSION}`,
      );
    return header;
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    throw new ImportRefused(`${file} is not a Vigía export (${(error as Error).message})`);
  } finally {
    await it.return?.();
  }
}

export async function importStore(
  db: Kysely<unknown>,
  options: {
    file: string;
    /** the file's header, as readHeader gave it (the caller reads it first, to choose the secret) */
    header: Header;
    migrations: string[];
    /** the keys of this store's secret, with the exported secrets among the previous ones */
    keys: ServerKeys;
    /** whether this store's secret is not the exported one: then every stored secret is re-sealed with it */
    reseal: boolean;
    sealed: readonly SealedColumn[];
    /** the file store of this store; given the transaction, so a database store's files commit with the rows */
    files: (trx: Kysely<unknown>) => FileStore;
    progress?: (message: string) => void;
    /** the bytes of the file read, of its size (the rows' total is known only at its end) */
    read?: Progress;
  },
): Promise<ImportReport> {
  const { header } = options;
  if (header.migrations.join() !== options.migrations.join())
    throw new ImportRefused(
      `the export was made by a Vigía with migrations up to ${header.migrations.at(-1)}, this one has ${options.migrations.at(-1)}: import with the same version`,
    );
  const report: ImportReport = { tables: {}, files: 0, resealed: 0 };
  await db.transaction().execute(async (trx) => {
    const tables = new Map((await storeTables(trx)).map((t) => [t.name, t]));
    const seeded = seededTables();
    for (const table of tables.values()) {
      if (seeded.has(table.name)) continue;
      const [row] = await queryRows<{ found: boolean }>(
        trx,
        `SELECT EXISTS (SELECT 1 FROM ${quoted(table.name)}) AS found`,
      );
      if (row?.found)
        throw new ImportRefused(
          `this store already holds data (table ${table.name}): import into an empty database`,
        );
    }
    // What the migrations wrote is in the export too, as the exported store last had it.
    for (const name of seeded) if (tables.has(name)) await queryRows(trx, `DELETE FROM ${quoted(name)}`);
    const store = options.files(trx);
    const it = lines(options.file, options.read);
    await it.next(); // the header
    let end: EndLine | undefined;
    for (let next = await it.next(); !next.done; next = await it.next()) {
      const line = next.value;
      if (!isControl(line)) throw new ImportRefused("a row outside any table: the file is damaged");
      const control = JSON.parse(line) as TableLine | FileLine | EndLine;
      if (control.$ === "table") {
        const table = tables.get(control.name);
        if (!table) throw new ImportRefused(`the export has a table this store lacks: ${control.name}`);
        if (control.columns.join() !== table.columns.map((c) => c.name).join())
          throw new ImportRefused(
            `table ${control.name} has other columns here: import with the same version`,
          );
        report.tables[table.name] = await importTable(trx, table, it, options.progress);
      } else if (control.$ === "file") {
        await store.put(control.path, Buffer.from(control.content, "base64"));
        report.files++;
      } else if (control.$ === "end") {
        end = control;
        break;
      }
    }
    const complete =
      end &&
      end.files === report.files &&
      Object.entries(end.tables).every(([name, rows]) => report.tables[name] === rows) &&
      Object.keys(end.tables).length === Object.keys(report.tables).length;
    options.read?.done();
    if (!complete)
      throw new ImportRefused("the export file is incomplete (cut short or damaged): nothing was imported");
    for (const table of tables.values()) await resetSequences(trx, table);
    options.progress?.(`files: ${report.files}`);
    // A store under another secret re-seals what the exported one sealed (decrypting with it, as a rotation does).
    if (options.reseal) {
      const resealed = await resealAll(trx, options.keys, options.sealed);
      report.resealed = Object.values(resealed.resealed).reduce((a, b) => a + b, 0);
      const unreadable = Object.values(resealed.unreadable).reduce((a, b) => a + b, 0);
      if (unreadable > 0)
        throw new ImportRefused(`${unreadable} stored secrets could not be opened: nothing was imported`);
    }
  });
  return report;
}

async function importTable(
  db: Kysely<unknown>,
  table: StoreTable,
  it: AsyncIterableIterator<string>,
  progress?: (message: string) => void,
): Promise<number> {
  const columns = table.columns.map((c) => quoted(c.name)).join(", ");
  const insert = `INSERT INTO ${quoted(table.name)} (${columns})
    SELECT ${columns} FROM jsonb_populate_recordset(NULL::${quoted(table.name)}, $1::jsonb)`;
  let batch: string[] = [];
  let bytes = 0;
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await queryRows(db, insert, [`[${batch.join(",")}]`]);
    count += batch.length;
    batch = [];
    bytes = 0;
  };
  let shown = Date.now();
  for (let next = await it.next(); !next.done; next = await it.next()) {
    const line = next.value;
    if (isControl(line)) {
      const end = JSON.parse(line) as { $: string; name?: string; rows?: number };
      if (end.$ !== "end-table" || end.name !== table.name)
        throw new ImportRefused(`table ${table.name} does not end where it should: the file is damaged`);
      await flush();
      if (end.rows !== count)
        throw new ImportRefused(
          `table ${table.name} has ${count} rows, its end says ${end.rows}: the file is damaged`,
        );
      progress?.(`${table.name}: ${count.toLocaleString("en-US")} rows`);
      return count;
    }
    batch.push(line);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
    if (progress && Date.now() - shown > 5_000) {
      progress(`${table.name}: ${(count + batch.length).toLocaleString("en-US")} rows so far`);
      shown = Date.now();
    }
  }
  throw new ImportRefused(`the export file ends inside table ${table.name}: nothing was imported`);
}

/** Moves each serial column's sequence past the largest id copied, so new rows get new ids. */
async function resetSequences(db: Kysely<unknown>, table: StoreTable): Promise<void> {
  for (const column of table.serial) {
    await queryRows(
      db,
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quoted(column)}) FROM ${quoted(table.name)}), 0) + 1, false)`,
      [table.name, column],
    );
  }
}
