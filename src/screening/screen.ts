// Screening persons against the lists (POST /screening/persons, and every monitored client): each person's
// candidates from the matcher, each judged at its own list's thresholds and read by its list's outcome class
// (outcomes.ts: a sanctions `match`, a `pep`, a tax `review`), and the person's verdict, the strongest of them.
// With no list imported there is nothing to screen against, and the screening says so (409) rather than answer
// `clear` for persons it never compared with anything.
import { AppError } from "../platform/errors.ts";
import { type VisibleName, visibleName } from "../platform/visible-text.ts";
import type { ListEntry } from "./entry.ts";
import { visibleTo } from "./lists/read.ts";
import type { Candidate } from "./match/matcher.ts";
import { type CandidateVerdict, candidateVerdict, classOf, worstVerdict } from "./outcomes.ts";
import type { CandidateView, PersonInput, PersonResult } from "./schemas.ts";
import type { LoadedLists } from "./screener.ts";
import type { ListThresholds } from "./settings.ts";

const MAX_CANDIDATES = 10;
/** Candidates asked of the matcher, before the lists' thresholds and the cut to MAX_CANDIDATES. */
const MATCHER_LIMIT = 100;

export const NO_LISTS =
  "No list of persons has been imported, so nobody can be screened: run `vigia lists import KIND FILE` (KIND ofac-sdn, un, sat-69b, mx-lpb or ftm; docs/person-lists.md) or `vigia lists refresh KIND`";

/**
 * A SAT 69-B entry the taxpayer has cleared (desvirtuado, or a favourable ruling) no longer presumes simulated
 * operations: it is kept in the list, never a candidate.
 */
function cleared(entry: ListEntry & { list: string }): boolean {
  if (entry.list !== "sat-69b") return false;
  const situations = entry.programs.map((p) => p.toLowerCase());
  return (
    situations.length > 0 &&
    situations.every((s) => s.includes("desvirtuad") || s.includes("sentencia favorable"))
  );
}

function viewOf(c: Candidate, reachedMatch: boolean): CandidateView {
  const e = c.entry;
  const outcome = classOf(e);
  const verdict: CandidateVerdict = candidateVerdict(outcome, reachedMatch);
  // A tax list's entry is a situation to review, named: presunto, definitivo (SAT 69-B).
  const situation =
    outcome === "tax" && e.programs.length > 0 ? [`SAT 69-B situation: ${e.programs.join(", ")}`] : [];
  return {
    list: e.list,
    listVersion: e.listVersion,
    entryId: e.entryId,
    score: c.score,
    verdict,
    class: outcome,
    matchedName: c.matchedName,
    matchedFields: [...c.matchedFields],
    notes: [...c.notes, ...situation],
    entry: {
      type: e.type,
      names: e.names,
      dates: e.dates,
      countries: e.countries,
      identifiers: e.identifiers,
      programs: e.programs,
      ...(e.remarks ? { remarks: e.remarks } : {}),
    },
  };
}

export function screenPerson(
  loaded: LoadedLists,
  thresholds: ListThresholds,
  person: PersonInput,
  /** the project screening: it reads the service-wide lists and its own (the UIF's LPB), no other project's */
  projectId: number,
): PersonResult {
  const lists = loaded.lists.filter(visibleTo(projectId));
  const floor = Math.min(...lists.map((l) => thresholds[l.kind].review));
  const type = person.type ?? "person";
  const date = type === "entity" ? (person.incorporationDate ?? person.birthdate) : person.birthdate;
  const found = loaded.matcher.search(
    {
      name: person.name,
      type,
      ...(date ? { date } : {}),
      ...(person.nationality ? { country: person.nationality.toUpperCase() } : {}),
      ...(person.identifiers ? { identifiers: person.identifiers } : {}),
    },
    { floor, limit: MATCHER_LIMIT },
  );
  const judged: CandidateView[] = [];
  for (const c of found.candidates) {
    if (cleared(c.entry)) continue;
    if (c.entry.listProject != null && c.entry.listProject !== projectId) continue;
    const t = thresholds[c.entry.list];
    if (c.score < t.review) continue;
    judged.push(viewOf(c, c.score >= t.match));
  }
  // Each list's best candidate stays whatever the others' scores: an LPB match must not be crowded out by ten PEP
  // namesakes, since the verdict and the law rules read each list's.
  const best = new Map<string, CandidateView>();
  for (const c of judged) if (!best.has(c.list)) best.set(c.list, c);
  const kept = new Set<CandidateView>(best.values());
  for (const c of judged) if (kept.size < MAX_CANDIDATES) kept.add(c);
  const candidates = judged.filter((c) => kept.has(c));
  const verdict = worstVerdict(candidates.map((c) => c.verdict));
  const read = visibleName(person.name);
  const disguised = read.hidden.length > 0 || read.mixedScripts;
  // The officer reads a candidate in an alert, not the whole result: each candidate says the name hid something.
  if (disguised) for (const c of candidates) c.notes.push(disguiseNote(read));
  return {
    name: person.name,
    ...(disguised
      ? { nameAsRead: { compared: read.visible, hidden: read.hidden, mixedScripts: read.mixedScripts } }
      : {}),
    verdict,
    candidates,
    ruledOut: found.ruledOut
      .filter((r) => r.entry.listProject == null || r.entry.listProject === projectId)
      .slice(0, MAX_CANDIDATES)
      .map((r) => ({
        list: r.entry.list,
        entryId: r.entry.entryId,
        matchedName: r.matchedName,
        reason: r.reason,
      })),
    lists: lists.map(({ kind, version, listDate, entries, importedAt }) => ({
      kind,
      version,
      listDate,
      entries,
      importedAt,
    })),
  };
}

/** "the name as sent hides 2 characters (U+200B invisible at 27, U+0430 look-alike of "a" at 30); compared as ..." */
function disguiseNote(read: VisibleName): string {
  const shown = read.hidden
    .slice(0, 5)
    .map((h) =>
      h.kind === "invisible"
        ? `${h.character} invisible at ${h.at}`
        : `${h.character} ${h.kind} of "${h.readsAs}" at ${h.at}`,
    );
  const more = read.hidden.length > 5 ? `, and ${read.hidden.length - 5} more` : "";
  const scripts = read.mixedScripts ? "; its letters mix scripts" : "";
  return `the name as sent hides ${read.hidden.length} character(s) (${shown.join(", ")}${more})${scripts}; compared as "${read.visible}"`;
}

/**
 * Fails when no list is imported that the project reads: a `clear` against nothing would be a verdict the service
 * never reached.
 */
export function assertListsLoaded(loaded: LoadedLists, projectId?: number): void {
  const lists = projectId === undefined ? loaded.lists : loaded.lists.filter(visibleTo(projectId));
  if (lists.length === 0) throw new AppError("conflict", NO_LISTS);
}
