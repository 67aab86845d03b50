// What a detector reports: a pattern found in a graph, with the evidence a compliance officer needs to check it
// by hand (docs/risk-model.md): wallets, transaction hashes, the USD amount, the thresholds used, a one-sentence message
// with the figures, and a confidence.
import type { TxGraph } from "./graph/types.ts";

export const PATTERNS = [
  "mixing",
  "peel_chain",
  "structuring",
  "round_tripping",
  "mass_wallet_creation",
  "wash_trading",
  "exchange_hopping",
] as const;
export type PatternName = (typeof PATTERNS)[number];

export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const PATTERN_SEVERITY: Record<PatternName, Severity> = {
  mixing: "critical",
  peel_chain: "high",
  structuring: "high",
  round_tripping: "medium",
  mass_wallet_creation: "medium",
  wash_trading: "medium",
  exchange_hopping: "low",
};

export interface Finding {
  pattern: PatternName;
  severity: Severity;
  /** 0..1 */
  confidence: number;
  /** the address the finding is about (the peel chain's start, the structurer, the funder, ...) */
  subject: string;
  /** every wallet involved, subject first, then sorted */
  wallets: string[];
  /**
   * the wallets that perform the pattern (subject first, then sorted), a subset of `wallets`: e.g. every hop of a
   * peel chain, both sides of a wash trade, a funder and the wallets it created; not the payees of a structurer,
   * the exchanges of a hopper or the mixer itself. Scoring weighs a finding fully only for its actors.
   */
  actors: string[];
  /** transaction hashes of the evidence, sorted */
  txs: string[];
  usdAmount: number;
  /** the parameters that decided it, e.g. { thresholdUsd: 10000, windowDays: 7 } */
  thresholds: Record<string, number | string>;
  /** one sentence with the figures */
  message: string;
}

/** A detector is a pure function: the same graph and parameters always give the same findings, in the same order. */
export type Detector<P> = (graph: TxGraph, params: P) => Finding[];
