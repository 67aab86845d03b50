// A candidate of a screening as an alert keeps it (src/alerts): who in the profile was screened (and the person as
// screened: what the officer compares with the entry, as it was then), the list entry, the score and what agreed, and
// when; the entry's identifiers stay on the list.
import type { PersonCandidateEvidence } from "../alerts/index.ts";
import type { CandidateView, PersonInput } from "./schemas.ts";

export function candidateEvidence(
  c: CandidateView,
  subject: string,
  role: string,
  now: Date,
  person?: PersonInput,
): PersonCandidateEvidence {
  return {
    subject,
    role,
    list: c.list,
    listVersion: c.listVersion,
    entryId: c.entryId,
    matchedName: c.matchedName,
    score: c.score,
    verdict: c.verdict,
    matchedFields: c.matchedFields,
    notes: c.notes,
    entry: {
      type: c.entry.type,
      names: c.entry.names,
      dates: c.entry.dates,
      countries: c.entry.countries,
      programs: c.entry.programs,
    },
    screenedAt: now.toISOString(),
    ...(person ? { person } : {}),
  };
}
