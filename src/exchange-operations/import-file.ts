// `vigia import operations FILE --project ID`: the exchange's operations from a file, as POST
// /projects/{id}/operations takes them, in batches of 1,000 checked and written as the API does (a batch with any
// wrong line is written not at all, and the import stops naming each wrong line and field; operations already held
// are left as they are, so the file can be imported again once corrected). JSON lines (one operation per line), or
// CSV with a header: a dotted column fills a nested field (`counterparty.name`), `chainId` is a number and
// `balances` holds a custody snapshot's balances as JSON; empty cells are absent fields.
import fs from "node:fs";
import readline from "node:readline";
import { parse } from "csv-parse";
import type { Kysely } from "kysely";
import { AppError } from "../platform/errors.ts";
import type { Progress } from "../platform/progress.ts";
import type { DB } from "../schema.ts";
import { checkedItems, firstIndexOf, type ParseAddress } from "./items.ts";
import { MAX_OPERATIONS } from "./schemas.ts";
import { insertOperations } from "./store.ts";

export interface ImportSummary {
  lines: number;
  created: number;
  unchanged: number;
}

/** A problem of a line, as the import reports it. */
export interface LineProblem {
  line: number;
  field: string;
  message: string;
}

export class ImportRefused extends Error {
  constructor(
    message: string,
    readonly problems: LineProblem[],
    readonly written: ImportSummary,
  ) {
    super(message);
    this.name = "ImportRefused";
  }
}

interface Row {
  line: number;
  value: unknown;
}

/** A CSV row's cells as an operation: dotted columns nested, numbers and JSON where the API takes them. */
function fromCells(cells: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(cells)) {
    const cell = raw.trim();
    if (cell === "") continue;
    const path = column.trim().split(".");
    let at = out;
    for (const part of path.slice(0, -1)) {
      if (at[part] === undefined) at[part] = {};
      at = at[part] as Record<string, unknown>;
    }
    const key = path.at(-1) as string;
    if (key === "chainId" && /^\d+$/.test(cell)) at[key] = Number(cell);
    else if (key === "balances") {
      try {
        at[key] = JSON.parse(cell);
      } catch {
        at[key] = cell;
      }
    } else at[key] = cell;
  }
  return out;
}

async function* jsonLines(file: string): AsyncGenerator<Row> {
  const lines = readline.createInterface({
    input: fs.createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let n = 0;
  for await (const text of lines) {
    n += 1;
    if (text.trim() === "") continue;
    try {
      yield { line: n, value: JSON.parse(text) };
    } catch {
      throw new ImportRefused(
        `line ${n} is not JSON`,
        [{ line: n, field: "", message: "is not a JSON object" }],
        {
          lines: 0,
          created: 0,
          unchanged: 0,
        },
      );
    }
  }
}

async function* csvRows(file: string): AsyncGenerator<Row> {
  const parser = fs
    .createReadStream(file)
    .pipe(parse({ columns: true, bom: true, skip_empty_lines: true, info: true }));
  for await (const r of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>)
    yield { line: r.info.lines, value: fromCells(r.record) };
}

/** Whether the file is JSON lines: by its name, else by its first character. */
function isJsonLines(file: string): boolean {
  if (/\.(jsonl|ndjson|json)$/i.test(file)) return true;
  if (/\.csv$/i.test(file)) return false;
  const head = fs.readFileSync(file, { encoding: "utf8", flag: "r" }).slice(0, 64).trimStart();
  return head.startsWith("{");
}

/** Imports the file's operations into the project; throws ImportRefused naming the wrong lines. */
export async function importOperations(
  db: Kysely<DB>,
  projectId: number,
  file: string,
  parseAddress: ParseAddress,
  progress: Progress,
): Promise<ImportSummary> {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  const total: ImportSummary = { lines: 0, created: 0, unchanged: 0 };
  let batch: Row[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const shaped = rows.map((r) => r.value);
    try {
      const envelopeProblems = shaped.flatMap((v, i) =>
        v && typeof v === "object" && "kind" in v
          ? []
          : [{ index: i, field: "kind", message: "is required" }],
      );
      if (envelopeProblems.length > 0)
        throw new ImportRefused(
          "lines without a kind",
          envelopeProblems.map((p) => ({
            line: (rows[p.index] as Row).line,
            field: p.field,
            message: p.message,
          })),
          total,
        );
      const items = checkedItems(shaped, parseAddress);
      const counted = await insertOperations(
        db,
        projectId,
        items,
        rows.length,
        new Date(),
        firstIndexOf(shaped),
      );
      total.lines += rows.length;
      total.created += counted.created;
      total.unchanged += counted.unchanged;
      progress.tick(total.lines);
    } catch (error) {
      if (error instanceof AppError && error.details) {
        const problems = error.details.map((d) => {
          const m = /^\/operations\/(\d+)(\/.*)?$/.exec(d.path);
          const row = m ? rows[Number(m[1])] : undefined;
          return { line: row?.line ?? 0, field: (m?.[2] ?? d.path).replace(/^\//, ""), message: d.message };
        });
        throw new ImportRefused(
          `${problems.length} problem(s) in the batch of lines ${rows[0]?.line}-${rows.at(-1)?.line}: nothing of that batch was written`,
          problems,
          total,
        );
      }
      throw error;
    }
  };
  for await (const row of isJsonLines(file) ? jsonLines(file) : csvRows(file)) {
    batch.push(row);
    if (batch.length === MAX_OPERATIONS) await flush();
  }
  await flush();
  progress.done();
  return total;
}
