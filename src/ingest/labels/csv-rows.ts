// Streams a CSV file with a header row as records keyed by lowercased column name, each with its line number.
// Malformed CSV (an unclosed quote, a row with the wrong number of columns) is an InputError naming the line.
import fs from "node:fs";
import { CsvError, parse } from "csv-parse";
import { InputError } from "./row-problems.ts";

export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

export interface CsvFile {
  columns: string[];
  records: AsyncGenerator<CsvRecord>;
}

/** Opens `file` and reads its header; `records` then streams the rows (values trimmed). */
export async function openCsv(file: string): Promise<CsvFile> {
  await assertReadableFile(file);
  const source = fs.createReadStream(file);
  const parser = source.pipe(
    // A record past 1 MiB is not a label row (an unclosed quote would otherwise read the rest of the file).
    parse({
      bom: true,
      skip_empty_lines: true,
      info: true,
      relax_column_count: false,
      max_record_size: 1 << 20,
    }),
  );
  source.on("error", (error) => parser.destroy(error));
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<{
    record: string[];
    info: { lines: number };
  }>;
  const first = await next(file, iterator);
  if (!first) throw new InputError(`${file}: empty file (a header row is needed)`);
  const columns = first.record.map((name) => name.trim().toLowerCase());
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) throw new InputError(`${file}:${first.info.lines}: column "${name}" appears twice`);
    seen.add(name);
  }
  async function* records(): AsyncGenerator<CsvRecord> {
    for (;;) {
      const item = await next(file, iterator);
      if (!item) return;
      const values: Record<string, string> = {};
      columns.forEach((name, index) => {
        values[name] = (item.record[index] ?? "").trim();
      });
      yield { line: item.info.lines, values };
    }
  }
  return { columns, records: records() };
}

async function next<T>(file: string, iterator: AsyncIterator<T>): Promise<T | undefined> {
  try {
    const result = await iterator.next();
    return result.done ? undefined : result.value;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new InputError(
        `${file}${line ? `:${line}` : ""}: ${error.message.replace(/^Invalid[^:]*: /, "")}`,
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new InputError(`${file}: no such file`);
    throw new InputError(`${file}: ${(error as Error).message}`);
  }
}

/** An InputError unless `file` is a readable regular file. */
export async function assertReadableFile(file: string): Promise<void> {
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new InputError(`${file}: not a file`);
    await fs.promises.access(file, fs.constants.R_OK);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${file}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}
