// `vigia import prices FILE` and `vigia import fx FILE`: CSV rows streamed, validated, staged in a temporary table
// and merged into `prices` / `fx_rates` in one transaction, recorded in import_runs. A key repeated in the file with
// the same value is fine; with a different value it is rejected (file:line, and the line it contradicts).
import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import { NO_PROGRESS, type Progress } from "../../platform/progress.ts";
import type { DB } from "../../schema.ts";
import { assertReadableFile, openCsv } from "../labels/csv-rows.ts";
import { recordedImport } from "../labels/import-run.ts";
import { InputError, type RowOutcome, RowProblems } from "../labels/row-problems.ts";
import { type FxRow, fxRow, type PriceRow, priceRow } from "./rows.ts";

export interface RateImportOptions {
  skipInvalid?: boolean;
  progress?: Progress;
}

export interface RateImportSummary {
  import: "prices" | "fx";
  file: string;
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  skipped: number;
  rejected_rows?: string[];
  run_id: number;
}

/** What differs between the two files: columns, row check, staging table and merge target. */
interface RateKind<T> {
  name: "prices" | "fx";
  columns: string[];
  check(values: Record<string, string>): RowOutcome<T>;
  createStage: RawBuilder<unknown>;
  stage(rows: { line: number; row: T }[]): RawBuilder<unknown>;
  /** the first key given two different values: its lines and a description */
  conflict: RawBuilder<{ lines: number[]; what: string }>;
  merge: RawBuilder<{ keys: number; inserted: number; updated: number }>;
}

const PRICES: RateKind<PriceRow> = {
  name: "prices",
  columns: ["chain_id", "token", "date", "price_usd"],
  check: priceRow,
  createStage: sql`CREATE TEMP TABLE price_stage (line integer NOT NULL, chain_id integer NOT NULL,
    token text NOT NULL, day date NOT NULL, price_usd numeric NOT NULL) ON COMMIT DROP`,
  stage: (rows) => sql`INSERT INTO price_stage SELECT * FROM unnest(${rows.map((r) => r.line)}::integer[],
    ${rows.map((r) => r.row.chainId)}::integer[], ${rows.map((r) => r.row.token)}::text[],
    ${rows.map((r) => r.row.day)}::date[], ${rows.map((r) => r.row.priceUsd)}::numeric[])`,
  conflict: sql<{ lines: number[]; what: string }>`SELECT array_agg(line ORDER BY line) AS lines,
      'chain ' || chain_id || ' ' || token || ' ' || to_char(day, 'YYYY-MM-DD') AS what
    FROM price_stage GROUP BY chain_id, token, day HAVING count(DISTINCT price_usd) > 1
    ORDER BY min(line) LIMIT 1`,
  merge: sql<{ keys: number; inserted: number; updated: number }>`WITH src AS (
      SELECT DISTINCT ON (chain_id, token, day) chain_id, token, day, price_usd
      FROM price_stage ORDER BY chain_id, token, day, line
    ), written AS (
      INSERT INTO prices AS p (chain_id, token, day, price_usd) SELECT * FROM src
      ON CONFLICT (chain_id, token, day) DO UPDATE SET price_usd = excluded.price_usd
        WHERE p.price_usd IS DISTINCT FROM excluded.price_usd
      RETURNING (xmax::text = '0') AS inserted
    )
    SELECT (SELECT count(*) FROM src)::integer AS keys,
      (SELECT count(*) FROM written WHERE inserted)::integer AS inserted,
      (SELECT count(*) FROM written WHERE NOT inserted)::integer AS updated`,
};

const FX: RateKind<FxRow> = {
  name: "fx",
  columns: ["date", "currency", "per_usd"],
  check: fxRow,
  createStage: sql`CREATE TEMP TABLE fx_stage (line integer NOT NULL, day date NOT NULL, currency text NOT NULL,
    per_usd numeric NOT NULL) ON COMMIT DROP`,
  stage: (rows) => sql`INSERT INTO fx_stage SELECT * FROM unnest(${rows.map((r) => r.line)}::integer[],
    ${rows.map((r) => r.row.day)}::date[], ${rows.map((r) => r.row.currency)}::text[],
    ${rows.map((r) => r.row.perUsd)}::numeric[])`,
  conflict: sql<{ lines: number[]; what: string }>`SELECT array_agg(line ORDER BY line) AS lines,
      currency || ' ' || to_char(day, 'YYYY-MM-DD') AS what
    FROM fx_stage GROUP BY day, currency HAVING count(DISTINCT per_usd) > 1 ORDER BY min(line) LIMIT 1`,
  merge: sql<{ keys: number; inserted: number; updated: number }>`WITH src AS (
      SELECT DISTINCT ON (day, currency) day, currency, per_usd FROM fx_stage ORDER BY day, currency, line
    ), written AS (
      INSERT INTO fx_rates AS f (day, currency, per_usd) SELECT * FROM src
      ON CONFLICT (day, currency) DO UPDATE SET per_usd = excluded.per_usd
        WHERE f.per_usd IS DISTINCT FROM excluded.per_usd
      RETURNING (xmax::text = '0') AS inserted
    )
    SELECT (SELECT count(*) FROM src)::integer AS keys,
      (SELECT count(*) FROM written WHERE inserted)::integer AS inserted,
      (SELECT count(*) FROM written WHERE NOT inserted)::integer AS updated`,
};

const BATCH = 2000;

async function importRates<T>(
  db: Kysely<DB>,
  kind: RateKind<T>,
  file: string,
  options: RateImportOptions,
): Promise<RateImportSummary> {
  await assertReadableFile(file);
  const problems = new RowProblems(file, options.skipInvalid);
  const progress = options.progress ?? NO_PROGRESS;
  try {
    const result = await recordedImport(db, kind.name, file, async (trx: Transaction<DB>) => {
      const csv = await openCsv(file);
      const missing = kind.columns.filter((name) => !csv.columns.includes(name));
      if (missing.length > 0) {
        const list = `${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`;
        throw new InputError(`${file}:1: missing column${list} (expected ${kind.columns.join(",")})`);
      }
      await kind.createStage.execute(trx);
      let read = 0;
      let batch: { line: number; row: T }[] = [];
      for await (const { line, values } of csv.records) {
        read += 1;
        progress.tick(read);
        const outcome = kind.check(values);
        if ("error" in outcome) problems.reject(line, outcome.error);
        else if ("skip" in outcome) problems.skip(outcome.skip);
        else if (!problems.failed) {
          batch.push({ line, row: outcome.row });
          if (batch.length >= BATCH) {
            await kind.stage(batch).execute(trx);
            batch = [];
          }
        }
      }
      problems.throwIfFailed();
      if (batch.length > 0) await kind.stage(batch).execute(trx);
      const conflict = (await kind.conflict.execute(trx)).rows[0];
      if (conflict) {
        const [first, second] = conflict.lines;
        throw new InputError(`${file}:${second}: ${conflict.what} differs from line ${first}`);
      }
      const merged = (await kind.merge.execute(trx)).rows[0]!;
      return { rows_read: read, rows_written: merged.inserted + merged.updated, merged };
    });
    return {
      import: kind.name,
      file,
      rows: result.rows_read,
      inserted: result.merged.inserted,
      updated: result.merged.updated,
      unchanged: result.merged.keys - result.merged.inserted - result.merged.updated,
      rejected: problems.rejected,
      skipped: problems.skipped,
      ...(problems.rejected > 0 ? { rejected_rows: problems.messages } : {}),
      run_id: result.run_id,
    };
  } finally {
    progress.done();
  }
}

export const importPrices = (db: Kysely<DB>, file: string, options: RateImportOptions = {}) =>
  importRates(db, PRICES, file, options);

export const importFx = (db: Kysely<DB>, file: string, options: RateImportOptions = {}) =>
  importRates(db, FX, file, options);
