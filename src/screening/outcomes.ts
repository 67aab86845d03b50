// What a candidate means for the client, by the kind of list it is on (docs/api.md, "Screening"): an integrator acts
// on the verdict, so each list kind has its outcome class.
//  - sanctions: OFAC's SDN list, the UN Security Council's list, the UIF's Lista de Personas Bloqueadas, and the
//    OpenSanctions entries that are not PEPs: `match` at the list's match threshold (do not operate), `review` at its
//    review threshold;
//  - pep: a politically exposed person (an OpenSanctions entry of topic role.pep, or role.rca for a relative or close
//    associate): enhanced due diligence, never refusal (LFPIORPI Art. 18 VIII and X; RCG Arts. 23 Ter 3 and 23 Ter
//    5): `pep` at the match threshold, `review` (is it the same person?) at the review threshold;
//  - tax: the SAT's Art. 69-B list of taxpayers presumed to simulate operations: a tax situation, not a sanction:
//    `review` at either threshold, the situation named.
// The person's verdict is the strongest of its candidates', in this order: `match` (refuse), `review` (hold for the
// officer), `pep` (operate with enhanced due diligence and a directivo's approval), `clear`.
import type { ListEntry } from "./entry.ts";

export const OUTCOME_CLASSES = ["sanctions", "pep", "tax"] as const;
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];

export const VERDICTS = ["clear", "pep", "review", "match"] as const;
export type Verdict = (typeof VERDICTS)[number];
/** A candidate's own verdict: what its score is at its list's thresholds, read by its class. */
export type CandidateVerdict = Exclude<Verdict, "clear">;

const PEP_TOPIC = /^role\.(pep|rca)(\.|$)/;
const SANCTION_TOPIC = /^sanction(\.|$)/;

/** The outcome class of an entry of a list. */
export function classOf(entry: Pick<ListEntry, "programs"> & { list: string }): OutcomeClass {
  if (entry.list === "sat-69b") return "tax";
  if (entry.list !== "ftm") return "sanctions";
  // An OpenSanctions entry is a PEP's when that is all it is: a sanctioned PEP is sanctioned.
  const topics = entry.programs;
  return topics.some((t) => PEP_TOPIC.test(t)) && !topics.some((t) => SANCTION_TOPIC.test(t))
    ? "pep"
    : "sanctions";
}

/** A candidate's verdict from its class and whether its score reached the match or only the review threshold. */
export function candidateVerdict(outcome: OutcomeClass, reachedMatch: boolean): CandidateVerdict {
  if (!reachedMatch) return "review";
  return outcome === "sanctions" ? "match" : outcome === "pep" ? "pep" : "review";
}

/** The strongest of several verdicts (`clear` for none). */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  let worst = 0;
  for (const v of verdicts) worst = Math.max(worst, VERDICTS.indexOf(v));
  return VERDICTS[worst] as Verdict;
}
