// Progress of `import etl` on stderr (platform/progress.ts: a live line on a terminal, a log line every 10 s
// elsewhere): the phase, the file being read, the bytes of the export read so far of its total (whole files: a file
// counts once it is read), rows read, rows/s and new transfers, and the time left.
import fs from "node:fs";
import path from "node:path";
import { duration, type ProgressOptions } from "../../platform/progress.ts";

export interface EtlProgress {
  /** `checking`: the first pass through the socket bridge, which writes nothing */
  reading(state: { phase: "checking" | "importing"; file: string; rows: number; transfers: number }): void;
  done(): void;
}

export const NO_PROGRESS: EtlProgress = { reading() {}, done() {} };

const n = (value: number) => Math.round(value).toLocaleString("en-US");
const mib = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MiB`;

/** The progress of an import of `files` (their paths, in the order they are read). */
export function etlProgress(
  files: readonly string[],
  options: Omit<ProgressOptions, "unit" | "total"> = {},
): EtlProgress {
  const stream = options.stream ?? process.stderr;
  const clock = options.clock ?? Date.now;
  const every = stream.isTTY ? 250 : (options.logEveryMs ?? 10_000);
  const sizes = new Map(
    files.map((f) => [path.basename(f), fs.statSync(f, { throwIfNoEntry: false })?.size ?? 0]),
  );
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  let last = clock();
  let shown = false;
  let phase = "";
  let phaseStart = last;
  let current = "";
  let doneBytes = 0;
  let rowsNow = 0;
  const write = (text: string) =>
    stream.write(
      stream.isTTY
        ? `\r\x1b[Kimport etl: ${text}`
        : `${new Date(clock()).toISOString()} import etl: ${text}\n`,
    );
  return {
    reading(state) {
      const now = clock();
      if (state.phase !== phase) {
        phase = state.phase;
        phaseStart = now;
        doneBytes = 0;
        current = "";
      }
      if (state.file !== current) {
        if (current) doneBytes += sizes.get(current) ?? 0;
        current = state.file;
      }
      rowsNow = state.rows;
      if (now - last < every) return;
      last = now;
      shown = true;
      const seconds = Math.max((now - phaseStart) / 1000, 0.001);
      const share = total > 0 ? doneBytes / total : 0;
      const left = share > 0 && share < 1 ? `, about ${duration((seconds / share) * (1 - share))} left` : "";
      write(
        `${phase} ${state.file}: ${n(state.rows)} rows (${n(state.rows / seconds)} rows/s)` +
          (phase === "importing" ? `, ${n(state.transfers)} new transfers` : "") +
          `; files read ${mib(doneBytes)} of ${mib(total)} (${(share * 100).toFixed(1)} %)${left}`,
      );
    },
    done() {
      if (!shown) return;
      if (stream.isTTY) stream.write("\r\x1b[K");
      else write(`done, ${n(rowsNow)} rows in ${duration((clock() - phaseStart) / 1000)}`);
    },
  };
}
