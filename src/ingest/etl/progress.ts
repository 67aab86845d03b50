// Progress of `import etl` on stderr, only when stderr is a terminal: one line, rewritten at most 4 times a
// second: the file being read, rows read, rows/s and new transfers.

export interface EtlProgress {
  /** `checking`: the first pass through the socket bridge, which writes nothing */
  reading(state: { phase: "checking" | "importing"; file: string; rows: number; transfers: number }): void;
  done(): void;
}

export const NO_PROGRESS: EtlProgress = { reading() {}, done() {} };

const n = (value: number) => Math.round(value).toLocaleString("en-US");

export function terminalProgress(
  stream: Pick<NodeJS.WriteStream, "write" | "isTTY"> = process.stderr,
  clock: () => number = Date.now,
): EtlProgress {
  if (!stream.isTTY) return NO_PROGRESS;
  let last = 0;
  let shown = false;
  let phaseStart = clock();
  let phase = "";
  const show = (name: string, text: (seconds: number) => string) => {
    const now = clock();
    if (name !== phase) {
      phase = name;
      phaseStart = now;
    } else if (now - last < 250) return;
    last = now;
    shown = true;
    stream.write(`\r\x1b[Kimport etl: ${text(Math.max((now - phaseStart) / 1000, 0.001))}`);
  };
  return {
    reading({ phase, file, rows, transfers }) {
      show(
        phase,
        (s) =>
          `${phase} ${file}: ${n(rows)} rows (${n(rows / s)} rows/s)` +
          (phase === "importing" ? `, ${n(transfers)} new transfers` : ""),
      );
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
