// How alike two normalised name tokens are (0-1), and how well a query's tokens cover a list name's, weighed by
// how rare each token is. Pure functions over tokens; the index and the blocking are in matcher.ts.
import { distance } from "fastest-levenshtein";

/** Below this a token pair is no match at all: "garcia"/"gracia" (0.83 after the transposition) is, "lopez"/"perez" is not. */
export const TOKEN_MATCH_MIN = 0.7;

/**
 * A coarse Spanish/Arabic sound skeleton: letters that clerks and transliterators write for the same sound are
 * made one (z/s, v/b, ll/y, c before e/i and s, silent h, k/q/c, doubled letters), so that "gonzales"/"gonzalez",
 * "yolanda"/"llolanda" or "hussein"/"husein" compare equal before the edit distance is asked.
 */
export function skeleton(token: string): string {
  let s = skeletons.get(token);
  if (s === undefined) {
    // Bounded: the index's tokens plus the queries' recent ones; cleared whole when full (cheap to refill).
    if (skeletons.size >= SKELETON_CACHE_MAX) skeletons.clear();
    s = computeSkeleton(token);
    skeletons.set(token, s);
  }
  return s;
}

/** Skeletons are asked for the same tokens over and over (every pairing of a search): cached. */
const skeletons = new Map<string, string>();
const SKELETON_CACHE_MAX = 1_000_000;

function computeSkeleton(token: string): string {
  return token
    .replace(/ph/g, "f")
    .replace(/ll/g, "y")
    .replace(/c([ei])/g, "s$1")
    .replace(/qu/g, "k")
    .replace(/[cq]/g, "k")
    .replace(/z/g, "s")
    .replace(/v/g, "b")
    .replace(/w/g, "u")
    .replace(/y/g, "i")
    .replace(/h/g, "")
    .replace(/(.)\1+/g, "$1");
}

/** Whether a and b (same length) differ by one swap of adjacent letters ("gracia"/"garcia"). */
function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** Particles written joined to the surname ("delatorre", "dossantos", "alrashid", "vandersar"). */
const JOINED_PARTICLES = ["delos", "delas", "dela", "del", "de", "dos", "da", "do", "van", "von", "al", "el"];

/** Whether `joined` is a particle written onto `bare` (normaliseName dropped the particle when written apart). */
export function isJoinedParticle(joined: string, bare: string): boolean {
  if (joined.length <= bare.length || bare.length < 3 || !joined.endsWith(bare)) return false;
  return JOINED_PARTICLES.includes(joined.slice(0, joined.length - bare.length));
}

/**
 * Similarity of two normalised tokens, 0-1. One typo (insertion, deletion, substitution, or a swap of adjacent
 * letters) in a token of four letters or more scores 0.85-0.9 whatever its length: a typo is a typo, and 1 -
 * distance/length would punish it more in short surnames ("Loera"/"Loerq" 0.8) than in long ones. Two typos are
 * tolerated in tokens of eight letters or more. Four-letter tokens get 0.75 for one typo. A token of one letter (an initial) matches a token it begins
 * weakly (0.5): "J." is some evidence for "Joaquin", not much.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? 0.5 : 0;
  if (isJoinedParticle(a, b) || isJoinedParticle(b, a)) return 0.95;
  const minLen = Math.min(a.length, b.length);
  const maxLen = Math.max(a.length, b.length);
  // Lengths too far apart cannot be one or two typos apart: skip the distance.
  if (maxLen - minLen > 2) return 0;
  const sa = skeleton(a);
  const sb = skeleton(b);
  if (sa === sb && minLen >= 3) return 0.92;
  let d = distance(a, b);
  if (d === 2 && isTransposition(a, b)) d = 1;
  let sim = 1 - d / maxLen;
  // Four-letter tokens ("jong"/"song", "omar"/"amar") are more often two names than a typo: less credit.
  if (d === 1 && minLen >= 4) sim = Math.max(sim, minLen >= 6 ? 0.9 : minLen === 5 ? 0.85 : 0.75);
  else if (d === 2 && minLen >= 8) sim = Math.max(sim, 0.78);
  else if (d >= 2) {
    // Sound-alike skeletons one edit apart ("gonsales"/"gonzalez" with one more typo)
    const ds = distance(sa, sb);
    if (ds <= 1 && Math.min(sa.length, sb.length) >= 5) sim = Math.max(sim, 0.8);
  }
  return sim >= TOKEN_MATCH_MIN ? sim : 0;
}

/** One query token or entry token matched, with the similarity and which tokens on each side it used. */
export interface Pairing {
  query: number[];
  entry: number[];
  sim: number;
}

export interface Coverage {
  /** 0-1: the weighed share of both names' tokens that the other covers (a Dice coefficient over weights) */
  score: number;
  pairings: Pairing[];
  /** entry tokens matched (by a pairing of similarity at least TOKEN_MATCH_MIN) */
  entryMatched: number;
}

/**
 * Aligns query tokens to entry tokens, order-free, and scores the alignment. Pairs are taken greedily, best
 * similarity first, each token used once (with a handful of tokens a side, greedy is the optimal assignment in all
 * but contrived cases, and far cheaper). Then tokens left over on one side are tried against two adjacent
 * leftovers of the other side joined ("mariajose" against "maria" "jose"; "delatorre" against "de la torre" is
 * already handled by tokenSimilarity's joined particles).
 *
 * The score is a weighed Dice coefficient: the sum, over pairings, of the similarity times the weights of the
 * tokens on both sides, over the sum of every token's weight on both sides. A query that is the list name less one
 * token loses that token's weight once (the list's side), so "Joaquin Guzman Loera" against "Joaquin Archivaldo
 * Guzman Loera" keeps about 0.8; a query that shares one common surname with a three-token name keeps little,
 * because a common surname weighs little (see the matcher's weights) and a lone match is further discounted
 * there.
 */
export function coverage(
  query: readonly string[],
  queryWeights: readonly number[],
  entry: readonly string[],
  entryWeights: readonly number[],
): Coverage {
  const nq = query.length;
  const ne = entry.length;
  const candidates: { i: number; j: number; sim: number }[] = [];
  for (let i = 0; i < nq; i++) {
    for (let j = 0; j < ne; j++) {
      const sim = tokenSimilarity(query[i] as string, entry[j] as string);
      if (sim > 0) candidates.push({ i, j, sim });
    }
  }
  candidates.sort((x, y) => y.sim - x.sim || x.i - y.i || x.j - y.j);
  const qUsed = new Array<boolean>(nq).fill(false);
  const eUsed = new Array<boolean>(ne).fill(false);
  const pairings: Pairing[] = [];
  for (const c of candidates) {
    if (qUsed[c.i] || eUsed[c.j]) continue;
    // An initial pairs only when nothing better is left: it is taken last anyway (0.5), and only once.
    qUsed[c.i] = true;
    eUsed[c.j] = true;
    pairings.push({ query: [c.i], entry: [c.j], sim: c.sim });
  }
  // Joined tokens: a leftover on one side against two adjacent leftovers on the other.
  const joins = (
    single: readonly string[],
    singleUsed: boolean[],
    pair: readonly string[],
    pairUsed: boolean[],
    add: (s: number, p: number, sim: number) => void,
  ) => {
    for (let s = 0; s < single.length; s++) {
      if (singleUsed[s] || (single[s] as string).length < 6) continue;
      for (let p = 0; p + 1 < pair.length; p++) {
        if (pairUsed[p] || pairUsed[p + 1]) continue;
        const sim = tokenSimilarity(single[s] as string, (pair[p] as string) + (pair[p + 1] as string));
        if (sim >= 0.85) {
          singleUsed[s] = true;
          pairUsed[p] = true;
          pairUsed[p + 1] = true;
          add(s, p, sim);
          break;
        }
      }
    }
  };
  if (pairings.length < Math.max(nq, ne)) {
    joins(query, qUsed, entry, eUsed, (s, p, sim) => pairings.push({ query: [s], entry: [p, p + 1], sim }));
    joins(entry, eUsed, query, qUsed, (s, p, sim) => pairings.push({ query: [p, p + 1], entry: [s], sim }));
  }
  let matched = 0;
  let total = 0;
  let entryMatched = 0;
  let tokenPairings = 0;
  for (const w of queryWeights) total += w;
  for (const w of entryWeights) total += w;
  for (const p of pairings) {
    let w = 0;
    for (const i of p.query) w += queryWeights[i] as number;
    for (const j of p.entry) w += entryWeights[j] as number;
    matched += p.sim * w;
    entryMatched += p.entry.length;
  }
  tokenPairings = pairings.length;
  return {
    score: total > 0 ? matched / total : 0,
    pairings,
    entryMatched: tokenPairings === 0 ? 0 : entryMatched,
  };
}
