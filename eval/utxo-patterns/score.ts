// The UTXO pattern eval's figures from its scans (run.ts): per pattern, the positives found, the near misses read as
// the pattern, and the ordinary users read as it; per variant, how many of its cases read as their pattern; and
// which kinds of ordinary user were read as any of the three. Pure.
import type { Case } from "../../src/worlds/index.ts";
import { UTXO_PATTERNS } from "./world.ts";

export interface Scanned {
  patterns: string[];
  riskReason: string;
  riskLevel: string;
}

export interface ScannedWorld {
  cases: Case[];
  scanned: ReadonlyMap<string, Scanned>;
  transactions: number;
}

export interface UtxoPatternReport {
  transactions: number;
  scanned: number;
  background: number;
  patterns: {
    pattern: string;
    positives: number;
    found: number;
    recall: number;
    nearMisses: number;
    nearMissFalseAlarms: number;
    nearMissFalseAlarmRate: number;
    backgroundFalseAlarms: number;
    backgroundFalseAlarmRate: number;
  }[];
  variants: { pattern: string; variant: string; positive: boolean; cases: number; hits: number }[];
  backgroundByKind: { kind: string; users: number; hits: number }[];
  /** the levels of the ordinary users read as one of the patterns */
  backgroundHitLevels: Record<string, number>;
}

export function scoreUtxoPatterns(worlds: readonly ScannedWorld[]): UtxoPatternReport {
  const all = worlds.flatMap((w) => w.cases.map((c) => ({ c, scan: w.scanned.get(c.subject) })));
  const reads = (scan: Scanned | undefined, pattern: string) => scan?.patterns.includes(pattern) ?? false;
  const background = all.filter(({ c }) => c.pattern === "background");
  const patterns = UTXO_PATTERNS.map((pattern) => {
    const positives = all.filter(({ c }) => c.pattern === pattern && c.positive);
    const nearMisses = all.filter(({ c }) => c.pattern === pattern && !c.positive);
    const found = positives.filter(({ scan }) => reads(scan, pattern)).length;
    const nearMissFalseAlarms = nearMisses.filter(({ scan }) => reads(scan, pattern)).length;
    const backgroundFalseAlarms = background.filter(({ scan }) => reads(scan, pattern)).length;
    return {
      pattern,
      positives: positives.length,
      found,
      recall: positives.length ? found / positives.length : 0,
      nearMisses: nearMisses.length,
      nearMissFalseAlarms,
      nearMissFalseAlarmRate: nearMisses.length ? nearMissFalseAlarms / nearMisses.length : 0,
      backgroundFalseAlarms,
      backgroundFalseAlarmRate: background.length ? backgroundFalseAlarms / background.length : 0,
    };
  });
  const variants = new Map<string, UtxoPatternReport["variants"][number]>();
  for (const { c, scan } of all) {
    if (c.pattern === "background") continue;
    const key = `${c.pattern}|${c.variant}|${c.positive}`;
    const v = variants.get(key) ?? {
      pattern: c.pattern,
      variant: c.variant ?? "",
      positive: c.positive,
      cases: 0,
      hits: 0,
    };
    v.cases++;
    if (reads(scan, c.pattern)) v.hits++;
    variants.set(key, v);
  }
  const kinds = new Map<string, { kind: string; users: number; hits: number }>();
  const backgroundHitLevels: Record<string, number> = {};
  for (const { c, scan } of background) {
    const k = kinds.get(c.note) ?? { kind: c.note, users: 0, hits: 0 };
    k.users++;
    if (UTXO_PATTERNS.some((p) => reads(scan, p))) {
      k.hits++;
      const level = scan?.riskLevel ?? "none";
      backgroundHitLevels[level] = (backgroundHitLevels[level] ?? 0) + 1;
    }
    kinds.set(c.note, k);
  }
  return {
    transactions: worlds.reduce((n, w) => n + w.transactions, 0),
    scanned: worlds.reduce((n, w) => n + w.scanned.size, 0),
    background: background.length,
    patterns,
    variants: [...variants.values()],
    backgroundByKind: [...kinds.values()],
    backgroundHitLevels,
  };
}
