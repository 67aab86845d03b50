// Where a candidate's score (matcher.ts) becomes a verdict, per list: `match` (the client is the listed person or
// company until shown otherwise), `review` (a person must look), `clear`. Settings: the service may override them
// per list; these defaults are the ones the person-screening eval (eval/persons/run.ts, docs/benchmarks.md) was
// scored at.
import type { ListKind } from "../entry.ts";
import type { Candidate } from "./matcher.ts";

export interface Thresholds {
  review: number;
  match: number;
}

/**
 * review 0.7: the eval's positives that lack a surname or a middle name score 0.72-0.85 by name alone, while a
 * decoy sharing a given name and one surname with a list name (a common "José García" against "José García
 * López") scores at most about 0.67, and a lone shared surname at most about 0.35. match 0.9: an exact or
 * re-ordered name, or one typo, scores above it; a name with a token missing reaches it only with a matching
 * birthdate or identifier. The same for every list: none of them is kinder to a namesake. PEPs (ftm) are not
 * sanctions, but a PEP's name match means enhanced due diligence just the same.
 */
export const DEFAULT_THRESHOLDS: Record<ListKind, Thresholds> = {
  "ofac-sdn": { review: 0.7, match: 0.9 },
  un: { review: 0.7, match: 0.9 },
  "sat-69b": { review: 0.7, match: 0.9 },
  "mx-lpb": { review: 0.7, match: 0.9 },
  ftm: { review: 0.7, match: 0.9 },
};

export type Verdict = "match" | "review" | "clear";

/** The verdict of a screening: the worst of its candidates', each judged by its own list's thresholds. */
export function verdictOf(
  candidates: readonly Pick<Candidate, "score" | "entry">[],
  thresholds: Record<ListKind, Thresholds> = DEFAULT_THRESHOLDS,
): Verdict {
  let verdict: Verdict = "clear";
  for (const c of candidates) {
    const t = thresholds[c.entry.list];
    if (c.score >= t.match) return "match";
    if (c.score >= t.review) verdict = "review";
  }
  return verdict;
}

/** The verdict one candidate gets on its own. */
export function candidateVerdict(
  candidate: Pick<Candidate, "score" | "entry">,
  thresholds: Record<ListKind, Thresholds> = DEFAULT_THRESHOLDS,
): Verdict {
  return verdictOf([candidate], thresholds);
}
