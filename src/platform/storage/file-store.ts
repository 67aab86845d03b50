// The file storage port: where generated files (compliance reports) are kept, by a relative path such as
// `mx/12/2026-09/u-1.3f2a9c41.xml`. Two stores implement it: the filesystem under the data dir (the embedded
// default) and a database table (fleets on PostgreSQL, where any API process must serve any file). Paths are
// checked here, once, for both: relative, slash-separated segments of letters, digits, `.`, `_` and `-` that start
// with a letter or digit, so no path can climb out of its prefix (`..`), be absolute, or hide a separator.
// A store keeps bytes only: what they are (their media type) is the caller's to know.
export interface FileStore {
  /** Writes the whole file at once: a reader sees the old content or the new one, never a part. */
  put(path: string, content: Buffer): Promise<void>;
  get(path: string): Promise<Buffer | undefined>;
  /** Removes the file; nothing happens when there is none. */
  delete(path: string): Promise<void>;
  /** Every file's path, in order (an export of the whole store reads them). */
  list(): AsyncIterable<string>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_SEGMENTS = 8;

/** Whether a path is one a store accepts (see the header). */
export function isStoragePath(path: string): boolean {
  if (path.length === 0 || path.length > 512) return false;
  const segments = path.split("/");
  return segments.length <= MAX_SEGMENTS && segments.every((s) => SEGMENT.test(s) && !s.includes(".."));
}

/** The path itself, or an error naming it: stores call this before touching anything. */
export function checkStoragePath(path: string): string {
  if (!isStoragePath(path)) throw new Error(`invalid storage path ${JSON.stringify(path.slice(0, 80))}`);
  return path;
}

/** Whether `path` lies under the folder `prefix` (segment-wise: `mx/1` does not contain `mx/12/...`). */
export function isUnder(path: string, prefix: string): boolean {
  return isStoragePath(path) && path.startsWith(`${prefix}/`);
}
