// The quick-check benchmark's recorded figures (bench/quick-check.ts) and the comparison that keeps a slowdown from
// landing unseen. The figures of the last run that passed are kept in its section of docs/benchmarks.md, in a
// comment (`<!-- quick-check baseline {...} -->`) with the commit they were measured on; a run compares its own
// with them: a p95 more than SLOWER (25 %) and more than P95_FLOOR_MS above the recorded one, a CPU time per check
// more than 25 % above it, or a throughput more than 25 % below it, fails the benchmark. A run that fails keeps the
// recorded figures (the next run compares with them again); one that passes records its own. BENCH_QUICK_ACCEPT=1 records a run's figures whatever they are,
// for a slowdown that is meant (say why in the commit).
import fs from "node:fs";

/** How much slower a figure may get: 25 %. */
export const SLOWER = 1.25;
/**
 * A p95 of a few ms moves by a ms or two from one run to the next on a machine shared with the load generator; a
 * slowdown must also be larger than this to count.
 */
export const P95_FLOOR_MS = 2;

/**
 * One measured figure: a latency percentile (ms), the service's CPU time per check (µs; lower is better for both) or
 * a rate (per second, higher is better).
 */
export interface Figure {
  kind: "p95" | "cpu" | "rate";
  value: number;
}

export interface Baseline {
  commit: string;
  measuredAt: string;
  /** database -> figure name -> figure */
  figures: Record<string, Record<string, Figure>>;
}

const MARK = /<!-- quick-check baseline (\{[\s\S]*?\}) -->/;

/** The recorded figures in `section` of the report, if any. */
export function readBaseline(report: string, section: string): Baseline | undefined {
  if (!fs.existsSync(report)) return undefined;
  const text = fs.readFileSync(report, "utf8");
  const start = text.indexOf(`<!-- bench:${section} -->`);
  const end = text.indexOf(`<!-- /bench:${section} -->`);
  if (start < 0 || end < start) return undefined;
  const found = MARK.exec(text.slice(start, end));
  return found ? (JSON.parse(found[1] as string) as Baseline) : undefined;
}

export function baselineComment(baseline: Baseline): string {
  return `<!-- quick-check baseline ${JSON.stringify(baseline)} -->`;
}

export interface Comparison {
  database: string;
  name: string;
  before: Figure;
  now: Figure;
  /** now relative to before: > 1 is slower (a longer p95, a lower rate) */
  slowdown: number;
  regressed: boolean;
}

/** Every figure measured now that was recorded before, with whether it got too much slower. */
export function compare(before: Baseline, now: Baseline): Comparison[] {
  const out: Comparison[] = [];
  for (const [database, figures] of Object.entries(now.figures)) {
    for (const [name, figure] of Object.entries(figures)) {
      const old = before.figures[database]?.[name];
      if (!old || old.kind !== figure.kind || !Number.isFinite(old.value) || !Number.isFinite(figure.value))
        continue;
      const slowdown = figure.kind === "rate" ? old.value / figure.value : figure.value / old.value;
      const regressed =
        figure.kind === "p95"
          ? slowdown > SLOWER && figure.value - old.value > P95_FLOOR_MS
          : slowdown > SLOWER;
      out.push({ database, name, before: old, now: figure, slowdown, regressed });
    }
  }
  return out;
}
