// The person-name matcher: an in-memory index of list entries' names (an inverted index on normalised tokens,
// plus a deletion-neighbourhood key for typos) and a search that scores each namesake found 0-1 from its name
// (similarity.ts), then raises it or rules it out by date of birth, nationality and identifiers. Pure: no I/O, no
// clock; the caller builds it from whatever store holds the lists and applies the thresholds (thresholds.ts).

import { visibleForm } from "../../platform/visible-text.ts";
import type { Identifier, ListEntry, ListKind } from "../entry.ts";
import { COMMON_NAME_TOKENS } from "./common.ts";
import { normaliseName } from "./normalise.ts";
import { coverage, isJoinedParticle, TOKEN_MATCH_MIN, tokenSimilarity } from "./similarity.ts";

export interface IndexedEntry extends ListEntry {
  list: ListKind;
  listVersion: string;
  /** the project whose own list it is on (the UIF's LPB); absent or null on a service-wide list */
  listProject?: number | null;
}

export interface PersonQuery {
  name: string;
  type?: "person" | "entity";
  /** YYYY[-MM[-DD]]: birth (persons) or incorporation (entities) */
  date?: string;
  /** ISO 3166-1 alpha-2 */
  country?: string;
  identifiers?: Identifier[];
}

export type MatchedField = "name" | "alias" | "date" | "country" | "identifier";

export interface Candidate {
  entry: IndexedEntry;
  /** the entry's name that matched best, as the list writes it */
  matchedName: string;
  /** 0-1, 3 decimals */
  score: number;
  nameScore: number;
  matchedFields: MatchedField[];
  /** why the score was raised or lowered, readable: "birthdate 1960-01-12 matches", "nationality MX differs from VE" */
  notes: string[];
}

export interface RuledOut {
  entry: IndexedEntry;
  matchedName: string;
  nameScore: number;
  reason: string;
}

export interface SearchOptions {
  /** candidates (and ruled-out namesakes, by name score) below this are not returned */
  floor: number;
  /** at most this many candidates (best first); 20 unless said */
  limit?: number;
}

/**
 * Weight of a token the index never saw. As much as the rarest indexed token: a client's surname no list name
 * carries is strong evidence that the client is not that list name's person.
 */
const UNKNOWN_WEIGHT = 1;
/**
 * The weight cap of a common given name or surname (common.ts): about a third of a rare token's, so that sharing
 * "José García" with a list name is worth about as much as sharing one rare surname.
 */
const COMMON_WEIGHT = 0.35;
/** What each disagreeing pair of words leaves of a name's score. */
const CONFLICT_FACTOR = 0.8;
/** The most a name of common words only scores without a date or identifier: under every default match threshold. */
const COMMON_NAME_MATCH_CAP = 0.85;
/** The most a partial name agreeing only on common words scores by itself: under every default review threshold. */
const COMMON_ONLY_CAP = 0.65;
/** Weights never fall below this: even "jose" on a million-name index says something. */
const MIN_WEIGHT = 0.15;
/**
 * IDF is computed as if the index had at least this many names: on a tiny index (a test's five entries) every
 * token would otherwise look common, and a two-name coincidence would weigh like a surname shared by thousands.
 */
const MIN_IDF_NAMES = 1000;
/**
 * A query and a list name that have only one token in common, when either has more: the score is multiplied by
 * this. One shared token, however rare, is a surname or a given name in common, not a namesake.
 */
const LONE_TOKEN_FACTOR = 0.6;
/** Type mismatch (a person's name against an entity's, or the reverse): the score is multiplied by this. */
const TYPE_MISMATCH_FACTOR = 0.6;
/**
 * Names fully scored per query, at most: the ones sharing the most weight with the query, found by the inverted
 * index. Keeps the worst case (a query of only very common tokens on a million names) bounded.
 */
const MAX_EXAMINED = 200;
/** The name score an identifier match needs to count as a confirmed match (score 1). */
const IDENTIFIER_NAME_MIN = 0.2;
/** Where an identifier matches but the names have nothing in common: in review under the default thresholds. */
const IDENTIFIER_ONLY_SCORE = 0.8;
/** Shifts packing a deletion key's 32-bit hash and a token id (below 2^21) into one float64 (53 bits exact). */
const TOKEN_BITS = 2 ** 21;
/** Tokens shorter than this get no typo key: one edit in a three-letter token is another name. */
const FUZZY_MIN_LENGTH = 4;

/** FNV-1a, 32 bits: the deletion keys' hash (collisions only cost a similarity check). */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The token with one letter removed, each way (SymSpell's deletion neighbourhood of distance 1). */
function deletions(token: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < token.length; i++) out.add(token.slice(0, i) + token.slice(i + 1));
  return [...out];
}

/** A query token's reading in the index: the indexed tokens it may be, with their similarity. */
interface Reading {
  token: number;
  sim: number;
}

export class PersonMatcher {
  readonly #entries: IndexedEntry[] = [];
  readonly #tokenId = new Map<string, number>();
  readonly #tokenText: string[] = [];
  #df: number[] = [];
  #weight: Float32Array;
  /** per indexed name: its entry, its position in the entry's names, its tokens (CSR into #nameTokens) */
  #nameEntry: Int32Array;
  #nameIndex: Int32Array;
  #nameTokenStart: Int32Array;
  #nameTokens: Int32Array;
  /** per indexed name: the sum of its tokens' weights (the blocking's estimate of a Dice score needs it) */
  #nameWeight: Float32Array;
  /** postings: token → names (CSR) */
  #postingStart: Int32Array;
  #postings: Int32Array;
  /** sorted hash(deletion) * TOKEN_BITS + token id */
  #fuzzyKeys: Float64Array;
  /** normalised identifier value → entries */
  readonly #byIdentifier = new Map<string, number[]>();
  /** scratch for search: accumulated weight per name, the last query token credited, the names touched */
  #acc: Float32Array;
  #lastToken: Int32Array;

  constructor(entries: Iterable<IndexedEntry>) {
    const nameEntry: number[] = [];
    const nameIndex: number[] = [];
    const nameTokenStart: number[] = [0];
    const nameTokens: number[] = [];
    for (const entry of entries) {
      const e = this.#entries.length;
      this.#entries.push(entry);
      entry.names.forEach((name, n) => {
        const tokens = normaliseName(name, entry.type);
        if (tokens.length === 0) return;
        const seen = new Set<number>();
        for (const t of tokens) {
          let id = this.#tokenId.get(t);
          if (id === undefined) {
            id = this.#tokenText.length;
            this.#tokenId.set(t, id);
            this.#tokenText.push(t);
            this.#df.push(0);
          }
          nameTokens.push(id);
          if (!seen.has(id)) {
            seen.add(id);
            this.#df[id] = (this.#df[id] as number) + 1;
          }
        }
        nameEntry.push(e);
        nameIndex.push(n);
        nameTokenStart.push(nameTokens.length);
      });
      for (const id of entry.identifiers) {
        const key = normaliseIdentifier(id.value);
        if (!key) continue;
        const list = this.#byIdentifier.get(key);
        if (!list) this.#byIdentifier.set(key, [e]);
        else if (list[list.length - 1] !== e) list.push(e);
      }
    }
    this.#nameEntry = Int32Array.from(nameEntry);
    this.#nameIndex = Int32Array.from(nameIndex);
    this.#nameTokenStart = Int32Array.from(nameTokenStart);
    this.#nameTokens = Int32Array.from(nameTokens);
    const names = nameEntry.length;
    const tokens = this.#tokenText.length;

    // Weights: IDF over the indexed names, normalised to 0-1, common given names and surnames capped.
    const n = Math.max(names, MIN_IDF_NAMES);
    const maxIdf = Math.log(n + 1);
    this.#weight = new Float32Array(tokens);
    for (let t = 0; t < tokens; t++) {
      let w = Math.log((n + 1) / ((this.#df[t] as number) + 1)) / maxIdf;
      if (COMMON_NAME_TOKENS.has(this.#tokenText[t] as string)) w = Math.min(w, COMMON_WEIGHT);
      this.#weight[t] = Math.max(MIN_WEIGHT, w);
    }

    // Postings, compressed rows: count, offsets, fill (a name's repeated token is posted once).
    this.#postingStart = new Int32Array(tokens + 1);
    for (let t = 0; t < tokens; t++)
      this.#postingStart[t + 1] = (this.#postingStart[t] as number) + (this.#df[t] as number);
    this.#postings = new Int32Array(this.#postingStart[tokens] as number);
    const fill = this.#postingStart.slice(0, tokens);
    for (let name = 0; name < names; name++) {
      const start = this.#nameTokenStart[name] as number;
      const end = this.#nameTokenStart[name + 1] as number;
      for (let k = start; k < end; k++) {
        const t = this.#nameTokens[k] as number;
        let repeated = false;
        for (let m = start; m < k; m++) if (this.#nameTokens[m] === t) repeated = true;
        if (!repeated) this.#postings[(fill[t] as number)++] = name;
      }
    }
    this.#df = []; // the postings hold it now
    this.#nameWeight = new Float32Array(names);
    for (let name = 0; name < names; name++) {
      let w = 0;
      for (let k = this.#nameTokenStart[name] as number; k < (this.#nameTokenStart[name + 1] as number); k++)
        w += this.#weight[this.#nameTokens[k] as number] as number;
      this.#nameWeight[name] = w;
    }

    // Typo keys: every indexed token's one-letter deletions, hashed, sorted (a Float64Array: compact and fast to
    // sort on a million names, where a Map of strings would take hundreds of megabytes).
    const keys: number[] = [];
    for (let t = 0; t < tokens && t < TOKEN_BITS; t++) {
      const text = this.#tokenText[t] as string;
      if (text.length < FUZZY_MIN_LENGTH) continue;
      for (const d of deletions(text)) keys.push(hash32(d) * TOKEN_BITS + t);
    }
    this.#fuzzyKeys = Float64Array.from(keys).sort();
    this.#acc = new Float32Array(names);
    this.#lastToken = new Int32Array(names).fill(-1);
  }

  /** Entries indexed. */
  get size(): number {
    return this.#entries.length;
  }

  /** Names indexed (each entry's primary name and aliases). */
  get names(): number {
    return this.#nameEntry.length;
  }

  /** Indexed tokens whose deletion key is `key`. */
  #tokensByKey(key: string, out: Set<number>): void {
    const h = hash32(key) * TOKEN_BITS;
    const keys = this.#fuzzyKeys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < h) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < keys.length && (keys[k] as number) < h + TOKEN_BITS; k++)
      out.add((keys[k] as number) - h);
  }

  /** What a query token may be in the index: itself, one typo away, or with a particle written onto it. */
  #readings(token: string): Reading[] {
    const out: Reading[] = [];
    const exact = this.#tokenId.get(token);
    if (exact !== undefined) out.push({ token: exact, sim: 1 });
    if (token.length >= FUZZY_MIN_LENGTH) {
      const near = new Set<number>();
      // indexed tokens sharing a deletion with the query token (a substitution or a swap), or equal to one of its
      // deletions (the query has a letter too many), or having it as a deletion (a letter too few)
      const dels = deletions(token);
      for (const d of dels) {
        this.#tokensByKey(d, near);
        const id = this.#tokenId.get(d);
        if (id !== undefined) near.add(id);
      }
      this.#tokensByKey(token, near);
      for (const id of near) {
        if (id === exact) continue;
        const sim = tokenSimilarity(token, this.#tokenText[id] as string);
        if (sim >= TOKEN_MATCH_MIN) out.push({ token: id, sim });
      }
      // "delatorre" → "torre"
      for (let cut = 2; cut <= 5 && token.length - cut >= 3; cut++) {
        const rest = token.slice(cut);
        const id = this.#tokenId.get(rest);
        if (id !== undefined && isJoinedParticle(token, rest)) out.push({ token: id, sim: 0.95 });
      }
    }
    return out.sort((a, b) => b.sim - a.sim);
  }

  search(query: PersonQuery, options: SearchOptions): { candidates: Candidate[]; ruledOut: RuledOut[] } {
    const limit = options.limit ?? 20;
    const qTokens = normaliseName(query.name, query.type);
    const readings = qTokens.map((t) => this.#readings(t));
    // A query token weighs what the indexed token it most resembles weighs; one the index never saw weighs most.
    const qWeights = qTokens.map((t, i) => {
      const best = readings[i]?.[0];
      if (best) return this.#weight[best.token] as number;
      return COMMON_NAME_TOKENS.has(t) ? COMMON_WEIGHT : UNKNOWN_WEIGHT;
    });
    const qTotal = qWeights.reduce((a, b) => a + b, 0);

    // Blocking: credit every name holding a reading of a query token with that token's weight times the
    // similarity (once per query token), then keep the names with enough shared weight.
    const acc = this.#acc;
    const lastToken = this.#lastToken;
    const touched: number[] = [];
    readings.forEach((list, i) => {
      // A token the query repeats ("Muhammad Al-Muhammad") is credited once per occurrence in the name, up to
      // the query's count, at its first occurrence in the query; names hold it once in the postings.
      const repeats = qTokens.filter((t) => t === qTokens[i]).length;
      if (repeats > 1 && qTokens.indexOf(qTokens[i] as string) !== i) return;
      for (const r of list) {
        const credit = r.sim * (this.#weight[r.token] as number);
        const end = this.#postingStart[r.token + 1] as number;
        for (let p = this.#postingStart[r.token] as number; p < end; p++) {
          const name = this.#postings[p] as number;
          if (lastToken[name] === i) continue;
          if (lastToken[name] === -1) touched.push(name);
          lastToken[name] = i;
          acc[name] =
            (acc[name] as number) +
            credit * (repeats > 1 ? Math.min(repeats, this.#count(name, r.token)) : 1);
        }
      }
    });
    // A name can score at least `floor` only if it shares a good part of the query's weight: the Dice score is at
    // most 2m / (qTotal + m) for m shared, so m >= floor * qTotal / (2 - floor); 0.8 of that allows for the list
    // side's weights differing from the query's. On a large index this is what keeps a query of common names
    // from scoring every name that shares one of them.
    const needed = (0.8 * options.floor * qTotal) / (2 - options.floor);
    let selected: number[] = [];
    for (const name of touched) if ((acc[name] as number) >= needed) selected.push(name);
    if (selected.length > MAX_EXAMINED) {
      // Ranked by an estimate of the Dice score, so that among many names sharing the same common tokens those
      // made of little else come first ("Muhammad Al-Muhammad" before every "Muhammad X Y"). The cut is the
      // MAX_EXAMINED-th best estimate, found by sorting a typed copy (far cheaper than sorting the names).
      const estimate = new Float32Array(selected.length);
      selected.forEach((name, k) => {
        estimate[k] = (2 * (acc[name] as number)) / (qTotal + (this.#nameWeight[name] as number));
      });
      const cut = estimate.slice().sort()[estimate.length - MAX_EXAMINED] as number;
      const kept: number[] = [];
      selected.forEach((name, k) => {
        if ((estimate[k] as number) >= cut && kept.length < MAX_EXAMINED * 2) kept.push(name);
      });
      selected = kept;
    }
    for (const name of touched) {
      acc[name] = 0;
      lastToken[name] = -1;
    }

    // The entries to score: those blocked by name, and those sharing an identifier with the query.
    const byEntry = new Map<number, number[]>();
    for (const name of selected) {
      const e = this.#nameEntry[name] as number;
      const list = byEntry.get(e);
      if (list) list.push(name);
      else byEntry.set(e, [name]);
    }
    for (const id of query.identifiers ?? []) {
      for (const e of this.#byIdentifier.get(normaliseIdentifier(id.value)) ?? []) {
        if (!byEntry.has(e)) byEntry.set(e, this.#namesOf(e));
      }
    }

    const candidates: Candidate[] = [];
    const ruledOut: RuledOut[] = [];
    for (const [e, names] of byEntry) {
      const entry = this.#entries[e] as IndexedEntry;
      let bestScore = -1;
      let bestName = 0;
      for (const name of names) {
        const s = this.#nameScore(qTokens, qWeights, name);
        if (s > bestScore) {
          bestScore = s;
          bestName = name;
        }
      }
      const nameIdx = this.#nameIndex[bestName] as number;
      const matchedName = entry.names[nameIdx] as string;
      const outcome = judge(query, entry, bestScore);
      if ("reason" in outcome) {
        if (bestScore >= options.floor)
          ruledOut.push({ entry, matchedName, nameScore: round3(bestScore), reason: outcome.reason });
        continue;
      }
      // A name made only of common words (a "José Hernández García") names thousands of clients: without a date or
      // an identifier that agrees, it is someone to review, never a match by itself.
      if (
        outcome.score > COMMON_NAME_MATCH_CAP &&
        !outcome.fields.includes("date") &&
        !outcome.fields.includes("identifier") &&
        this.#commonOnly(bestName)
      ) {
        outcome.score = COMMON_NAME_MATCH_CAP;
        outcome.notes.push(
          "a name of common given names and surnames only, with no date or identifier to confirm it",
        );
      }
      if (outcome.score < options.floor) continue;
      const fields: MatchedField[] = [nameIdx === 0 ? "name" : "alias", ...outcome.fields];
      candidates.push({
        entry,
        matchedName,
        score: round3(outcome.score),
        nameScore: round3(bestScore),
        matchedFields: fields,
        notes: outcome.notes,
      });
    }
    candidates.sort(
      (a, b) =>
        b.score - a.score || b.nameScore - a.nameScore || a.entry.entryId.localeCompare(b.entry.entryId),
    );
    ruledOut.sort((a, b) => b.nameScore - a.nameScore);
    return { candidates: candidates.slice(0, limit), ruledOut: ruledOut.slice(0, limit) };
  }

  /** Whether every word of an indexed name is a common given name or surname (common.ts). */
  #commonOnly(name: number): boolean {
    for (let k = this.#nameTokenStart[name] as number; k < (this.#nameTokenStart[name + 1] as number); k++)
      if (!COMMON_NAME_TOKENS.has(this.#tokenText[this.#nameTokens[k] as number] as string)) return false;
    return true;
  }

  /** How many times a name holds a token. */
  #count(name: number, token: number): number {
    let n = 0;
    for (let k = this.#nameTokenStart[name] as number; k < (this.#nameTokenStart[name + 1] as number); k++)
      if (this.#nameTokens[k] === token) n++;
    return n;
  }

  /** Every indexed name of entry e (for an identifier hit whose names the blocking did not find). */
  #namesOf(e: number): number[] {
    // names are indexed entry by entry: find the first by binary search, then walk
    let lo = 0;
    let hi = this.#nameEntry.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#nameEntry[mid] as number) < e) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let n = lo; n < this.#nameEntry.length && this.#nameEntry[n] === e; n++) out.push(n);
    return out;
  }

  /** The query's name against one indexed name, 0-1. */
  #nameScore(qTokens: string[], qWeights: number[], name: number): number {
    const start = this.#nameTokenStart[name] as number;
    const end = this.#nameTokenStart[name + 1] as number;
    const eTokens: string[] = [];
    const eWeights: number[] = [];
    for (let k = start; k < end; k++) {
      const t = this.#nameTokens[k] as number;
      eTokens.push(this.#tokenText[t] as string);
      eWeights.push(this.#weight[t] as number);
    }
    const cov = coverage(qTokens, qWeights, eTokens, eWeights);
    let score = cov.score;
    // One token in common, where either name has more: a shared given name or surname, or a one-word alias
    // ("MARIA") that a longer name happens to contain.
    if (cov.pairings.length === 1 && cov.entryMatched === 1 && Math.max(eTokens.length, qTokens.length) >= 2)
      score *= LONE_TOKEN_FACTOR;
    const qUsed = new Set(cov.pairings.flatMap((p) => p.query));
    const eUsed = new Set(cov.pairings.flatMap((p) => p.entry));
    const qLeft = qTokens.filter((t, i) => !qUsed.has(i) && t.length > 1).length;
    const eLeft = eTokens.filter((t, j) => !eUsed.has(j) && t.length > 1).length;
    // A word of the query where the list name has another ("Ximena Ramírez Alvarado" against "Ximena Ramírez
    // Durán") says more than a missing word: the two disagree. Each such pair lowers the score.
    score *= CONFLICT_FACTOR ** Math.min(qLeft, eLeft);
    // A name that is not the list name whole, agreeing only on common given names and surnames ("Juan Estrada
    // Hernández" against a PEP's "Juan Estrada"), is no candidate by the name alone: thousands of clients share it.
    // A matching birthdate or identifier may still raise it (judge).
    if (
      (qLeft > 0 || eLeft > 0) &&
      eUsed.size > 0 &&
      [...eUsed].every((j) => COMMON_NAME_TOKENS.has(eTokens[j] as string))
    )
      score = Math.min(score, COMMON_ONLY_CAP);
    return score;
  }
}

/**
 * An identifier's value as compared: read as shown (a fullwidth or Cyrillic look-alike letter is the Latin one, an
 * invisible character nothing: platform/visible-text.ts), then upper case, letters and digits only ("GULJ-540101 XX1"
 * → "GULJ540101XX1"). Without the first step, an RFC with a Cyrillic "Х" lost a character and, differing from the
 * list's, ruled the listed person out.
 */
export function normaliseIdentifier(value: string): string {
  return visibleForm(value)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
}

/** Identifier kinds a person or company has exactly one of, in one country: a different value rules out. */
const UNIQUE_KINDS = new Set<Identifier["kind"]>(["rfc", "curp"]);

interface DateParts {
  year: number;
  month?: number;
  day?: number;
}

function parseDate(date: string): DateParts | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(date);
  if (!m) return undefined;
  return {
    year: Number(m[1]),
    ...(m[2] ? { month: Number(m[2]) } : {}),
    ...(m[3] ? { day: Number(m[3]) } : {}),
  };
}

/**
 * How a query date agrees with one of the entry's: "full" (same day, or day and month swapped, the commonest
 * clerical slip), "month", "year", "near" (a year apart, or the same year with a different day: lists get days
 * wrong, and "circa" dates are written as a year), or "differs".
 */
function compareDates(q: DateParts, e: DateParts): "full" | "month" | "year" | "near" | "differs" {
  const years = Math.abs(q.year - e.year);
  if (years > 1) return "differs";
  if (years === 1) return "near";
  if (q.month === undefined || e.month === undefined) return "year";
  const swapped = q.day !== undefined && e.day !== undefined && q.day === e.month && q.month === e.day;
  if (q.month !== e.month && !swapped) return q.day !== undefined && e.day !== undefined ? "near" : "year";
  if (q.day === undefined || e.day === undefined) return "month";
  return q.day === e.day || swapped ? "full" : "near";
}

const DATE_RANK = { full: 4, month: 3, year: 2, near: 1, differs: 0 } as const;
/** Share of the way to 1 a date agreement raises the score (at full strength from a name score of 0.7 up). */
const DATE_RAISE = { full: 0.6, month: 0.45, year: 0.35, near: 0.05, differs: 0 } as const;
const COUNTRY_RAISE = 0.15;
const COUNTRY_LOWER = 0.05;

type Judgement = { score: number; fields: MatchedField[]; notes: string[] } | { reason: string };

/**
 * The name score adjusted by what else the query and the entry say. Raises are a share of the way to 1, scaled
 * down below a name score of 0.7: a shared birth year makes a plausible namesake likelier, it does not make a
 * shared surname a namesake.
 */
function judge(query: PersonQuery, entry: IndexedEntry, nameScore: number): Judgement {
  let score = nameScore;
  const fields: MatchedField[] = [];
  const notes: string[] = [];
  const strength = Math.min(1, nameScore / 0.7);
  const raise = (share: number) => {
    score += (1 - score) * share * strength;
  };

  // Identifiers first: a unique national id that differs rules out whatever else agrees.
  let identified: Identifier | undefined;
  for (const q of query.identifiers ?? []) {
    const qv = normaliseIdentifier(q.value);
    if (!qv) continue;
    const sameKind = entry.identifiers.filter((e) => e.kind === q.kind);
    const equal = entry.identifiers.find(
      (e) =>
        normaliseIdentifier(e.value) === qv &&
        (e.kind === q.kind || e.kind === "other" || q.kind === "other"),
    );
    if (equal) {
      identified = q;
      break;
    }
    if (UNIQUE_KINDS.has(q.kind) && sameKind.length > 0) {
      // An RFC's first ten characters are the name's initials and the birthdate; the last three (the homoclave)
      // are often mistyped. The same stem is no rule-out, and counts as a matching birthdate.
      const stem = sameKind.find(
        (e) =>
          q.kind === "rfc" &&
          qv.length >= 10 &&
          normaliseIdentifier(e.value).slice(0, 10) === qv.slice(0, 10),
      );
      if (stem) {
        raise(DATE_RAISE.full);
        fields.push("identifier");
        notes.push(`${q.kind.toUpperCase()} ${qv} matches ${stem.value} but for the homoclave`);
        continue;
      }
      return {
        reason: `${q.kind.toUpperCase()} ${qv} differs from the list's ${sameKind.map((e) => e.value).join(", ")}`,
      };
    }
  }

  if (query.type && query.type !== entry.type) {
    score *= TYPE_MISMATCH_FACTOR;
    notes.push(
      `a${query.type === "entity" ? "n entity" : " person"} queried, the list names a${entry.type === "entity" ? "n entity" : " person"}`,
    );
  }

  const qDate = query.date ? parseDate(query.date) : undefined;
  if (qDate && entry.dates.length > 0) {
    let best: keyof typeof DATE_RANK = "differs";
    let bestDate = entry.dates[0] as string;
    for (const d of entry.dates) {
      const parts = parseDate(d);
      if (!parts) continue;
      const c = compareDates(qDate, parts);
      if (DATE_RANK[c] > DATE_RANK[best]) {
        best = c;
        bestDate = d;
      }
    }
    const what = entry.type === "person" ? "birthdate" : "date of incorporation";
    if (best === "differs") {
      if (entry.type === "person" && !identified)
        return { reason: `${what} ${query.date} differs from the list's ${entry.dates.join(", ")}` };
      score *= 0.85;
      notes.push(`${what} ${query.date} differs from the list's ${entry.dates.join(", ")}`);
    } else {
      raise(DATE_RAISE[best]);
      if (best !== "near") fields.push("date");
      notes.push(
        best === "full"
          ? `${what} ${query.date} matches${bestDate === query.date ? "" : ` ${bestDate} (day and month swapped)`}`
          : best === "near"
            ? `${what} ${query.date} is close to the list's ${bestDate}`
            : `${what} ${query.date} matches the list's ${bestDate} in its ${best === "month" ? "year and month" : "year"}`,
      );
    }
  }

  if (query.country && entry.countries.length > 0) {
    const country = query.country.toUpperCase();
    if (entry.countries.includes(country)) {
      raise(COUNTRY_RAISE);
      fields.push("country");
      notes.push(`nationality ${country} matches`);
    } else {
      score = Math.max(0, score - COUNTRY_LOWER);
      notes.push(`nationality ${country} differs from ${entry.countries.join(", ")}`);
    }
  }

  if (identified) {
    const label = `${identified.kind.toUpperCase()} ${normaliseIdentifier(identified.value)}`;
    fields.push("identifier");
    if (nameScore >= IDENTIFIER_NAME_MIN) {
      score = 1;
      notes.push(`${label} matches`);
    } else {
      score = Math.max(score, IDENTIFIER_ONLY_SCORE);
      notes.push(`${label} matches, but the names have little in common`);
    }
  }
  return { score: Math.min(1, score), fields, notes };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
