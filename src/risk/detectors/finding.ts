// Building a Finding from a detector's evidence, in canonical form: wallets subject-first then sorted, unique
// sorted transaction hashes, rounded figures; and the canonical order of a list of findings.
import { type Finding, PATTERN_SEVERITY, PATTERNS, type PatternName } from "../findings.ts";
import { round } from "../format.ts";
import { cmp } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";

export interface Evidence {
  confidence: number;
  subject: string;
  wallets: Iterable<string>;
  /** who performs the pattern besides the subject (default: the subject alone) */
  actors?: Iterable<string>;
  edges: Iterable<GraphEdge>;
  usdAmount: number;
  thresholds: Record<string, number | string>;
  message: string;
}

export function makeFinding(pattern: PatternName, ev: Evidence): Finding {
  const others = new Set(ev.wallets);
  others.delete(ev.subject);
  const actors = new Set(ev.actors ?? []);
  actors.delete(ev.subject);
  for (const a of actors) others.add(a);
  const txs = new Set<string>();
  for (const e of ev.edges) txs.add(e.txHash);
  return {
    pattern,
    severity: PATTERN_SEVERITY[pattern],
    confidence: round(Math.min(1, Math.max(0, ev.confidence)), 3),
    subject: ev.subject,
    wallets: [ev.subject, ...[...others].sort(cmp)],
    actors: [ev.subject, ...[...actors].sort(cmp)],
    txs: [...txs].sort(cmp),
    usdAmount: round(ev.usdAmount, 2),
    thresholds: ev.thresholds,
    message: ev.message,
  };
}

/** Canonical order: pattern (as in PATTERNS), subject, first transaction, message. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    PATTERNS.indexOf(a.pattern) - PATTERNS.indexOf(b.pattern) ||
    cmp(a.subject, b.subject) ||
    cmp(a.txs[0] ?? "", b.txs[0] ?? "") ||
    cmp(a.txs.join(), b.txs.join()) ||
    cmp(a.message, b.message)
  );
}

export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(compareFindings);
}
