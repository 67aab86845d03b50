// Comparing amounts of two transfers: in the token's own units when they move the same token (exact), in USD
// otherwise (null when a price is missing), or both ways at once (ratioBounds); sums, medians.
import type { GraphEdge } from "./types.ts";

/** `b` as a fraction of `a`: b.value / a.value for one token, else b.usd / a.usd; null when not comparable. */
export function ratio(a: GraphEdge, b: GraphEdge): number | null {
  return unitRatio(a, b) ?? usdRatio(a, b);
}

/**
 * `b` as a fraction of `a` measured both ways, in token units (one token) and in USD (both priced): `lo` and
 * `hi` are the smaller and larger of the two, `value` the token-unit one when there is one. A detector asking
 * "at least x" uses `hi`, "at most y" uses `lo`, so that a price move between two days neither makes nor breaks
 * a finding on its own.
 */
export function ratioBounds(a: GraphEdge, b: GraphEdge): { value: number; lo: number; hi: number } | null {
  const units = unitRatio(a, b);
  const usd = usdRatio(a, b);
  if (units === null && usd === null) return null;
  const value = (units ?? usd) as number;
  const other = usd ?? value;
  return { value, lo: Math.min(value, other), hi: Math.max(value, other) };
}

function unitRatio(a: GraphEdge, b: GraphEdge): number | null {
  if (a.token !== b.token || a.value <= 0n) return null;
  return Number((b.value * 1_000_000n) / a.value) / 1_000_000;
}

function usdRatio(a: GraphEdge, b: GraphEdge): number | null {
  if (a.usd === null || b.usd === null || a.usd <= 0) return null;
  return b.usd / a.usd;
}

/** A transfer's amount as a plain number in whole tokens (for medians and spreads within one token). */
export function tokenAmount(e: GraphEdge): number {
  const scale = 10n ** BigInt(Math.max(0, e.decimals - 6));
  const micro = e.value / scale;
  return Number(micro) / 10 ** Math.min(6, e.decimals);
}

/** Sum of the USD values of edges (or conversion legs); null as soon as one has no price. */
export function sumPricedUsd(items: readonly { usd: number | null }[]): number | null {
  let total = 0;
  for (const item of items) {
    if (item.usd === null) return null;
    total += item.usd;
  }
  return total;
}

/** Sum of the USD values of edges; unpriced edges count as 0. */
export function sumUsd(edges: readonly GraphEdge[]): number {
  let total = 0;
  for (const e of edges) total += e.usd ?? 0;
  return total;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return 0;
  const mid = n >> 1;
  return n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
