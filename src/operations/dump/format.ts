// The export file of `vigia export` / `vigia import-db` (docs/operations.md, "Moving to PostgreSQL"): gzip'd
// lines. The first is the header; then each table as a `table` line, its rows (each the row's `to_jsonb` text,
// exactly as the database wrote it, so numbers of any size keep every digit) and an `end-table` line with the
// count; then each stored file as a `file` line; last an `end` line with every count, so that a cut-off file is
// refused. Control lines are objects whose first key is "$"; a row's JSON never starts that way (no column is
// named "$").
export const FORMAT = "vigia-export";
export const FORMAT_VERSION = 1;

export interface Header {
  $: typeof FORMAT;
  version: number;
  createdAt: string;
  /** the migrations the exported store had applied: the importing store must have the same */
  migrations: string[];
  /** the exported store's server secret, and those it still accepted (a rotation under way) */
  secret: { current: string; previous: string[] };
}

export interface TableLine {
  $: "table";
  name: string;
  columns: string[];
}

export interface EndTableLine {
  $: "end-table";
  name: string;
  rows: number;
}

export interface FileLine {
  $: "file";
  path: string;
  /** base64 */
  content: string;
}

export interface EndLine {
  $: "end";
  tables: Record<string, number>;
  files: number;
}

export type ControlLine = Header | TableLine | EndTableLine | FileLine | EndLine;

export const isControl = (line: string) => line.startsWith('{"$":');
