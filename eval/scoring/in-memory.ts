// Detection quality on a scenario World: every injected case (positive or false friend) is analysed in the graph
// built around its subject (src/worlds/render/graph.ts, depth 3), and counted per pattern.
//
// Attribution rule: a case counts as found when a finding of the case's pattern has the case's subject among
// its actors (the wallets that perform the pattern: the structurer, every hop of a peel chain, both wash
// traders, the funder and its new wallets, ...). A positive found is a true positive, a positive missed a false
// negative, a false friend found a false positive, one left alone a true negative. A background case (pattern
// "background": a plain user of the benchmark's population) is a negative for every pattern. The looser rule
// "among its wallets" (which also counts payees, exchanges and mixers involved) is computed too.
// Sanctions-exposure cases (1, 2 and 3 hops from a sanctioned address) are scored, not counted.

import { DEFAULT_DEPTH } from "../../src/analysis/index.ts";
import type { RiskLevel } from "../../src/risk/index.ts";
import { analyseGraph, PATTERNS, type PatternName, type RiskConfig } from "../../src/risk/index.ts";
import type { Case, World } from "../../src/worlds/index.ts";
import { indexWorld, worldGraph } from "../../src/worlds/index.ts";

export interface PatternQuality {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface SanctionsChain {
  id: string;
  /** scores at 1, 2 and 3 hops */
  scores: number[];
  levels: RiskLevel[];
}

export interface Evaluation {
  /** subject among a finding's actors */
  byActors: Record<PatternName, PatternQuality>;
  /** subject among a finding's wallets */
  byWallets: Record<PatternName, PatternQuality>;
  sanctions: SanctionsChain[];
  missed: Case[];
  falseAlarms: Case[];
}

export function evaluateWorld(world: World, config: RiskConfig = {}, depth = DEFAULT_DEPTH): Evaluation {
  const index = indexWorld(world);
  const counts = { actors: tally(), wallets: tally() };
  const chains = new Map<string, SanctionsChain>();
  const missed: Case[] = [];
  const falseAlarms: Case[] = [];
  for (const c of world.cases) {
    const analysis = analyseGraph(worldGraph(index, c.subject, { depth }), c.subject, config);
    if (c.pattern === "sanctions_exposure") {
      const [, chainId = c.id, hop = "1"] = /^(.*)-d(\d)$/.exec(c.id) ?? [];
      const chain = chains.get(chainId) ?? { id: chainId, scores: [], levels: [] };
      chain.scores[Number(hop) - 1] = analysis.score;
      chain.levels[Number(hop) - 1] = analysis.level;
      chains.set(chainId, chain);
      continue;
    }
    // A look-alike (eval/world/cases/conversions.ts) is a negative for every pattern, like a plain user.
    const background = c.pattern === "background" || c.pattern === "lookalike";
    if (!background && !(PATTERNS as readonly string[]).includes(c.pattern)) continue;
    for (const pattern of background ? PATTERNS : [c.pattern as PatternName]) {
      const ofPattern = analysis.findings.filter((f) => f.pattern === pattern);
      const byActors = ofPattern.some((f) => f.actors.includes(c.subject));
      const byWallets = ofPattern.some((f) => f.wallets.includes(c.subject));
      count(counts.actors[pattern], c.positive, byActors);
      count(counts.wallets[pattern], c.positive, byWallets);
      if (c.positive && !byActors) missed.push(c);
      if (!c.positive && byActors) falseAlarms.push(background ? { ...c, note: `${c.note}: ${pattern}` } : c);
    }
  }
  return {
    byActors: finish(counts.actors),
    byWallets: finish(counts.wallets),
    sanctions: [...chains.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    missed,
    falseAlarms,
  };
}

type Counts = { tp: number; fp: number; fn: number; tn: number };

function tally(): Record<PatternName, Counts> {
  return Object.fromEntries(PATTERNS.map((p) => [p, { tp: 0, fp: 0, fn: 0, tn: 0 }])) as Record<
    PatternName,
    Counts
  >;
}

function count(c: Counts, positive: boolean, found: boolean): void {
  if (positive && found) c.tp++;
  else if (positive) c.fn++;
  else if (found) c.fp++;
  else c.tn++;
}

function finish(all: Record<PatternName, Counts>): Record<PatternName, PatternQuality> {
  const out = {} as Record<PatternName, PatternQuality>;
  for (const p of PATTERNS) {
    const c = all[p];
    const precision = c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp);
    const recall = c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    out[p] = { ...c, precision, recall, f1 };
  }
  return out;
}
