// Progress of a long command on stderr, only when stderr is a terminal: a line rewritten at most 5 times a second.

export interface Progress {
  tick(rows: number): void;
  done(): void;
}

export const NO_PROGRESS: Progress = { tick() {}, done() {} };

export function terminalProgress(what: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return NO_PROGRESS;
  let last = 0;
  let shown = false;
  return {
    tick(rows) {
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      shown = true;
      stream.write(`\r${what}: ${rows.toLocaleString("en-US")} rows`);
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
