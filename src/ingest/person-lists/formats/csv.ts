// Streams a CSV file's records with the line each starts on, decoded as UTF-8 or, when the file is not valid
// UTF-8, as Windows-1252 (the SAT publishes its lists in Latin-1 with Windows' curly quotes, 0x93/0x94, which plain
// ISO-8859-1 would turn into control characters). Malformed CSV (an unclosed quote) is an InputError naming the
// line: a list cut mid-record must fail, not import what came before.
import fs from "node:fs";
import { Transform } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { InputError } from "../../labels/row-problems.ts";
import { head } from "./text.ts";

export type TextEncoding = "utf-8" | "windows-1252";

/** UTF-8 when the file's first megabyte decodes as UTF-8 (a sequence cut at the sample's end allowed). */
export async function detectEncoding(file: string): Promise<TextEncoding> {
  const sample = await head(file, 1 << 20);
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true });
    return "utf-8";
  } catch {
    return "windows-1252";
  }
}

/**
 * Windows-1252's characters at 0x80-0x9F (where ISO-8859-1 has control characters); 0x81, 0x8D, 0x8F, 0x90 and 0x9D
 * are unassigned and kept as they are. Decoded by hand because Node 20's TextDecoder("windows-1252") decodes as
 * ISO-8859-1 and would turn the SAT's curly quotes into control characters.
 */
const CP1252 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString("latin1").replace(/[\u0080-\u009f]/g, (c) => CP1252[c.charCodeAt(0) - 0x80] ?? c);
}

/** The file's bytes as text in `encoding`; a UTF-8 file with an invalid sequence past the sample is an error. */
export function decodedStream(file: string, encoding: TextEncoding): NodeJS.ReadableStream {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const decoder = {
    decode: (chunk?: Buffer, options?: { stream: boolean }) =>
      encoding === "utf-8" ? utf8.decode(chunk, options) : chunk ? decodeWindows1252(chunk) : "",
  };
  let offset = 0;
  const decode = new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _encoding, done) {
      try {
        const text = decoder.decode(chunk, { stream: true });
        offset += chunk.length;
        done(null, text);
      } catch {
        done(
          new InputError(
            `${file}: not valid UTF-8 near byte ${offset} though its beginning is; save it as UTF-8 (or wholly as Latin-1)`,
          ),
        );
      }
    },
    flush(done) {
      try {
        done(null, decoder.decode());
      } catch {
        done(new InputError(`${file}: ends in the middle of a UTF-8 character (truncated file?)`));
      }
    },
  });
  const source = fs.createReadStream(file, { highWaterMark: 1 << 16 });
  source.on("error", (error) => decode.destroy(error));
  return source.pipe(decode);
}

export interface CsvRow {
  /** the line the record starts on (1-based) */
  line: number;
  values: string[];
}

export interface CsvOptions {
  encoding: TextEncoding;
  /** csv-parse's comment character for whole-line comments (never inside a field) */
  comment?: string;
}

/** The file's records, blank lines skipped, any number of columns per record. */
export async function* csvRows(file: string, options: CsvOptions): AsyncGenerator<CsvRow> {
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    // A record past 1 MiB is an unclosed quote reading the rest of the file, not a row of a list.
    max_record_size: 1 << 20,
    ...(options.comment ? { comment: options.comment, comment_no_infix: true } : {}),
  });
  const input = decodedStream(file, options.encoding);
  input.on("error", (error) => parser.destroy(error));
  input.pipe(parser);
  let lastLine = 0;
  let empty = 0;
  let comments = 0;
  try {
    for await (const item of parser as AsyncIterable<{
      record: string[];
      info: { lines: number; empty_lines: number; comment_lines: number };
    }>) {
      const { lines, empty_lines, comment_lines } = item.info;
      const line = lastLine + 1 + (empty_lines - empty) + (comment_lines - comments);
      lastLine = lines;
      empty = empty_lines;
      comments = comment_lines;
      yield { line, values: item.record };
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof CsvError) {
      const at = (error as CsvError & { lines?: number }).lines;
      throw new InputError(`${file}${at ? `:${at}` : ""}: malformed CSV (${error.message}); truncated file?`);
    }
    throw error;
  }
}
