// Labels are imported by staging: the rows of a file go into a temporary table inside the import's transaction,
// then one statement merges them into `labels` (insert new, update changed, leave equal rows alone, so a second
// run writes nothing), and an optional replace removes the labels of the same sources that the file no longer has.
// Duplicate keys within a file: the first row wins, or (aggregate) labels are joined and the highest confidence kept.
import { sql, type Transaction } from "kysely";
import type { DB } from "../../schema.ts";

export interface LabelRow {
  address: string;
  chainId: number;
  label: string;
  category: string;
  originalCategory: string | null;
  source: string;
  confidence: number;
}

export interface MergeCounts {
  /** distinct (address, chain, category, source) keys in the file */
  labels: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

const BATCH = 2000;

export class LabelStage {
  #rows: { line: number; row: LabelRow }[] = [];

  private constructor(private readonly trx: Transaction<DB>) {}

  static async create(trx: Transaction<DB>): Promise<LabelStage> {
    await sql`CREATE TEMP TABLE label_stage (
      line integer NOT NULL, address text NOT NULL, chain_id integer NOT NULL, label text NOT NULL,
      category text NOT NULL, original_category text, source text NOT NULL, confidence integer NOT NULL
    ) ON COMMIT DROP`.execute(trx);
    return new LabelStage(trx);
  }

  async add(line: number, row: LabelRow): Promise<void> {
    this.#rows.push({ line, row });
    if (this.#rows.length >= BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    const rows = this.#rows;
    if (rows.length === 0) return;
    this.#rows = [];
    await sql`INSERT INTO label_stage
      SELECT * FROM unnest(${rows.map((r) => r.line)}::integer[], ${rows.map((r) => r.row.address)}::text[],
        ${rows.map((r) => r.row.chainId)}::integer[], ${rows.map((r) => r.row.label)}::text[],
        ${rows.map((r) => r.row.category)}::text[], ${rows.map((r) => r.row.originalCategory)}::text[],
        ${rows.map((r) => r.row.source)}::text[], ${rows.map((r) => r.row.confidence)}::integer[])`.execute(
      this.trx,
    );
  }

  /**
   * Merges the staged rows into `labels`. `replaceSources`: delete the labels of these sources ("staged": the
   * sources present in the file) whose key is not in the file.
   */
  async merge(
    options: {
      aggregate?: boolean;
      replaceSources?: "staged" | string[];
      /**
       * log the labels inserted or changed in `label_changes`, for the re-screening of monitored addresses (the
       * imports do; the generated worlds, which are not news, do not)
       */
      logChanges?: boolean;
    } = {},
  ): Promise<MergeCounts> {
    await this.flush();
    const trx = this.trx;
    const distinct = options.aggregate
      ? sql`SELECT address, chain_id, string_agg(DISTINCT label, '; ' ORDER BY label) AS label, category,
               string_agg(DISTINCT original_category, ';' ORDER BY original_category) AS original_category,
               source, max(confidence) AS confidence
             FROM label_stage GROUP BY address, chain_id, category, source`
      : sql`SELECT DISTINCT ON (address, chain_id, category, source)
               address, chain_id, label, category, original_category, source, confidence
             FROM label_stage ORDER BY address, chain_id, category, source, line`;
    const merged = await sql<{ labels: number; inserted: number; updated: number }>`
      WITH src AS (${distinct}),
      written AS (
        INSERT INTO labels AS l (address, chain_id, label, category, original_category, source, confidence)
        SELECT address, chain_id, label, category, original_category, source, confidence FROM src
        ON CONFLICT (address, chain_id, category, source) DO UPDATE
          SET label = excluded.label, original_category = excluded.original_category,
              confidence = excluded.confidence
          WHERE (l.label, l.original_category, l.confidence)
            IS DISTINCT FROM (excluded.label, excluded.original_category, excluded.confidence)
        RETURNING (xmax::text = '0') AS inserted, l.address, l.chain_id, l.label, l.category, l.source
      )${
        options.logChanges
          ? sql`, logged AS (
        INSERT INTO label_changes (chain_id, address, label, category, source)
        SELECT chain_id, address, label, category, source FROM written ORDER BY chain_id, address, source
        RETURNING 1
      )`
          : sql``
      }
      SELECT (SELECT count(*) FROM src)::integer AS labels,
             (SELECT count(*) FROM written WHERE inserted)::integer AS inserted,
             (SELECT count(*) FROM written WHERE NOT inserted)::integer AS updated`.execute(trx);
    const counts = merged.rows[0]!;
    let deleted = 0;
    if (options.replaceSources) {
      const sources =
        options.replaceSources === "staged"
          ? sql`SELECT DISTINCT source FROM label_stage`
          : sql`SELECT unnest(${options.replaceSources}::text[])`;
      const result = await sql<{ deleted: number }>`
        WITH gone AS (
          DELETE FROM labels l
          WHERE l.source IN (${sources})
            AND NOT EXISTS (SELECT 1 FROM label_stage s
              WHERE s.address = l.address AND s.chain_id = l.chain_id AND s.category = l.category
                AND s.source = l.source)
          RETURNING 1
        )
        SELECT count(*)::integer AS deleted FROM gone`.execute(trx);
      deleted = result.rows[0]?.deleted ?? 0;
    }
    return {
      labels: counts.labels,
      inserted: counts.inserted,
      updated: counts.updated,
      unchanged: counts.labels - counts.inserted - counts.updated,
      deleted,
    };
  }
}
