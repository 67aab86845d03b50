// Small text helpers shared by the readers: whitespace and name clean-up, the ListEntry limits (remarks length,
// identifier length), de-duplication that keeps the list's own order, and a file's first bytes for sniffing its
// format before streaming it.
import fs from "node:fs/promises";
import { InputError } from "../../labels/row-problems.ts";

/** Collapses runs of whitespace (no-break spaces included, which the SAT's file is full of) and trims. */
export function clean(text: string | undefined | null): string {
  return (text ?? "").replace(/[\s\u00a0\u2007\u202f]+/g, " ").trim();
}

/** The values in first-seen order, empty ones and repeats (after clean-up) left out. */
export function unique(values: Iterable<string | undefined>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const value = clean(raw);
    if (value === "" || seen.has(value)) continue;
    seen.add(value);
    out.push(value);
  }
  return out;
}

/** ListEntry.remarks holds at most 2,000 characters: longer remarks are cut with an ellipsis. */
export const MAX_REMARKS = 2000;
export function remarks(text: string | undefined): string | undefined {
  const value = clean(text);
  if (value === "") return undefined;
  return value.length <= MAX_REMARKS ? value : `${value.slice(0, MAX_REMARKS - 1)}…`;
}

/** The first `bytes` bytes of a file (fewer if it is shorter), to tell formats and encodings apart. */
export async function head(file: string, bytes = 64 * 1024): Promise<Buffer> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${file}: cannot be read (${code ?? (error as Error).message})`);
  }
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Only one file makes this list: say so plainly when given more or none. */
export function oneFile(kind: string, files: string[]): string {
  if (files.length !== 1 || !files[0])
    throw new InputError(`${kind}: expected one file, got ${files.length} (${files.join(", ") || "none"})`);
  return files[0];
}
