// Progress of a long command on stderr: how much is done, of how much when the total is known (rows, or the bytes
// of the files read), the share, the rate and the time left. On a terminal it is one line rewritten at most 5 times
// a second and wiped at the end; otherwise (systemd, cron, a pipe: where a rewritten line is noise and nothing shows
// until the end) it is a log line every 10 s, with the time, and a last one when the work ends.

export interface Progress {
  /** `done` units so far; `total` when it became known or changed (the sum of the files' sizes, say) */
  tick(done: number, total?: number): void;
  done(): void;
}

export const NO_PROGRESS: Progress = { tick() {}, done() {} };

export interface ProgressOptions {
  /** what is counted: "rows" (the default) or "bytes" */
  unit?: "rows" | "bytes";
  /** how many there are, when known before the work starts */
  total?: number;
  stream?: Pick<NodeJS.WriteStream, "write" | "isTTY">;
  clock?: () => number;
  /** how often a log line is written where stderr is not a terminal */
  logEveryMs?: number;
}

const TERMINAL_EVERY_MS = 200;
const LOG_EVERY_MS = 10_000;

const count = (n: number, unit: "rows" | "bytes") =>
  unit === "bytes" ? bytes(n) : `${Math.round(n).toLocaleString("en-US")} rows`;

function bytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[i]}`;
}

/** 75 -> "1 min 15 s"; 3725 -> "1 h 2 min". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ""}`;
}

/** The words of one progress report: "12,345 of 50,000 rows (24.7 %), 1,234 rows/s, about 31 s left". */
export function progressText(
  done: number,
  total: number | undefined,
  elapsedSeconds: number,
  unit: "rows" | "bytes" = "rows",
): string {
  const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  const perSecond =
    unit === "bytes" ? `${bytes(rate)}/s` : `${Math.round(rate).toLocaleString("en-US")} rows/s`;
  if (total === undefined || total <= 0) return `${count(done, unit)}, ${perSecond}`;
  const share = Math.min(100, (done / total) * 100);
  const left = rate > 0 && done < total ? `, about ${duration((total - done) / rate)} left` : "";
  const of =
    unit === "bytes"
      ? `${bytes(done)} of ${bytes(total)}`
      : `${count(done, unit).replace(/ rows$/, "")} of ${count(total, unit)}`;
  return `${of} (${share.toFixed(1)} %), ${perSecond}${left}`;
}

/** The progress of `what` (e.g. "lists import un") on stderr: a live line on a terminal, a log line otherwise. */
export function commandProgress(what: string, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const clock = options.clock ?? Date.now;
  const unit = options.unit ?? "rows";
  const started = clock();
  let total = options.total;
  let last = started;
  let latest = 0;
  let shown = false;
  const text = (done: number) => `${what}: ${progressText(done, total, (clock() - started) / 1000, unit)}`;
  if (stream.isTTY)
    return {
      tick(done, newTotal) {
        if (newTotal !== undefined) total = newTotal;
        const now = clock();
        if (now - last < TERMINAL_EVERY_MS) return;
        last = now;
        shown = true;
        stream.write(`\r\x1b[K${text(done)}`);
      },
      done() {
        if (shown) stream.write("\r\x1b[K");
      },
    };
  const every = options.logEveryMs ?? LOG_EVERY_MS;
  const line = (words: string) => stream.write(`${new Date(clock()).toISOString()} ${words}\n`);
  return {
    tick(done, newTotal) {
      if (newTotal !== undefined) total = newTotal;
      latest = done;
      const now = clock();
      if (now - last < every) return;
      last = now;
      shown = true;
      line(text(done));
    },
    done() {
      // A work long enough to have said how it went says how it ended; a short one stays silent.
      if (shown) line(`${what}: done, ${count(latest, unit)} in ${duration((clock() - started) / 1000)}`);
    },
  };
}
