// The person-screening eval: the matcher (src/screening/match) indexed on a cut of OFAC's SDN list, queried with
// the variants of listed names a real client record carries (positives) and with common Mexican names that are no
// one on the list (decoys), then scored at the thresholds of match/thresholds.ts. eval/persons/run.ts prints and
// records it; eval/persons/eval.test.ts runs a small seeded one and holds the targets. Everything is drawn from a
// seeded generator, so a run is reproducible.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Rng, rankPicker } from "../../src/platform/rng.ts";
import type { ListEntry } from "../../src/screening/entry.ts";
import {
  type Candidate,
  type IndexedEntry,
  PersonMatcher,
  type PersonQuery,
} from "../../src/screening/match/matcher.ts";
import { normaliseName, VARIANT_GROUPS } from "../../src/screening/match/normalise.ts";
import { DEFAULT_THRESHOLDS, type Thresholds } from "../../src/screening/match/thresholds.ts";

const DATA = path.join(path.dirname(fileURLToPath(import.meta.url)), "lists");
export const LIST_FILE = path.join(DATA, "ofac-sdn-2021-04.jsonl");
export const LIST_VERSION = "OFAC SDN 2021-04 (cut)";

/** The variants of a listed person's name that a positive query carries. */
export const VARIANT_KINDS = [
  "exact",
  "reordered",
  "caps",
  "accents",
  "punctuation",
  "surnames-swapped",
  "surname-missing",
  "middle-missing",
  "typo",
  "transliteration",
  "surname-missing+typo",
  // Adversarial: names that read the same on a screen and differ in what is stored.
  "invisible",
  "fullwidth",
  "look-alikes",
  "mixed-scripts",
] as const;
export type VariantKind = (typeof VARIANT_KINDS)[number];
/** The variants that disguise what is stored: they read as the listed name on a screen. */
export const DISGUISES = new Set<VariantKind>(["invisible", "fullwidth", "look-alikes", "mixed-scripts"]);

/** Decoys: people who are on no list, and must come out clear. */
export const DECOY_KINDS = ["common", "shares-surname", "namesake-other-dob"] as const;
export type DecoyKind = (typeof DECOY_KINDS)[number];

export interface EvalOptions {
  seed: number;
  /** listed persons drawn for positives (each gives one query per applicable variant kind) */
  persons: number;
  /** decoys of each kind */
  decoys: number;
  thresholds?: Thresholds;
  /** the floor candidates are searched at; the review threshold unless said */
  floor?: number;
}

export interface Rate {
  hits: number;
  total: number;
}

export interface EvalReport {
  options: EvalOptions;
  thresholds: Thresholds;
  entries: number;
  names: number;
  /** per variant kind, split by whether the query carried the list's birthdate */
  positives: Record<VariantKind, { reviewOrMatch: Rate; match: Rate; withDate: Rate; withoutDate: Rate }>;
  decoys: Record<
    DecoyKind,
    { queries: number; flagged: number; matched: number; ruledOut: number; withDate: boolean }
  >;
  /** decoys of kind `common` queried without a birthdate: the name alone */
  commonWithoutDate: { queries: number; flagged: number; matched: number };
  /** decoys left out because their name is, token for token, a name on the list (a true namesake, not a decoy) */
  decoysSkipped: number;
  /** per-query search time on the eval's index, ms */
  p50Ms: number;
  p95Ms: number;
  /** the misses and false candidates, for reading */
  misses: { kind: string; query: string; listed: string; best: string }[];
  falseCandidates: { kind: string; query: string; candidate: string; score: number }[];
}

export function loadList(): IndexedEntry[] {
  return fs
    .readFileSync(LIST_FILE, "utf8")
    .trim()
    .split("\n")
    .map((line) => ({ ...(JSON.parse(line) as ListEntry), list: "ofac-sdn", listVersion: LIST_VERSION }));
}

interface CommonNames {
  surnames: string[];
  given: string[];
}

function loadCommonNames(): CommonNames {
  return JSON.parse(fs.readFileSync(path.join(DATA, "common-names.json"), "utf8")) as CommonNames;
}

/** A listed person's name split as OFAC writes it: "SURNAMES, Given Names". */
interface SplitName {
  surnames: string[];
  given: string[];
}

function split(name: string): SplitName | undefined {
  const parts = name.split(",");
  if (parts.length !== 2) return undefined;
  const surnames = (parts[0] as string).trim().split(/\s+/).filter(Boolean);
  const given = (parts[1] as string).trim().split(/\s+/).filter(Boolean);
  if (surnames.length === 0 || given.length === 0) return undefined;
  return { surnames, given };
}

const title = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
const natural = (s: SplitName) => [...s.given, ...s.surnames].map(title).join(" ");

/** Accented spellings a Mexican client record would carry for names OFAC writes bare. */
const ACCENTED: Record<string, string> = {
  garcia: "garcía",
  gonzalez: "gonzález",
  rodriguez: "rodríguez",
  hernandez: "hernández",
  perez: "pérez",
  lopez: "lópez",
  martinez: "martínez",
  sanchez: "sánchez",
  ramirez: "ramírez",
  jose: "josé",
  maria: "maría",
  jesus: "jesús",
  angel: "ángel",
  ramon: "ramón",
  guzman: "guzmán",
  trevino: "treviño",
  nunez: "núñez",
  munoz: "muñoz",
  zuniga: "zúñiga",
  pena: "peña",
  ibanez: "ibáñez",
  alvarez: "álvarez",
  fernandez: "fernández",
  gomez: "gómez",
  diaz: "díaz",
  martin: "martín",
  raul: "raúl",
  hector: "héctor",
  oscar: "óscar",
  joaquin: "joaquín",
  ines: "inés",
  beltran: "beltrán",
  leon: "león",
  marquez: "márquez",
  vazquez: "vázquez",
  velazquez: "velázquez",
  jimenez: "jiménez",
  gutierrez: "gutiérrez",
  ruben: "rubén",
  german: "germán",
  ivan: "iván",
  adrian: "adrián",
  sebastian: "sebastián",
  andres: "andrés",
  tomas: "tomás",
  nicolas: "nicolás",
  cesar: "césar",
  medellin: "medellín",
  bolivar: "bolívar",
};

function accented(word: string, rng: Rng): string {
  const lower = word.toLowerCase();
  const known = ACCENTED[lower];
  if (known) return known;
  // Otherwise an accent where a clerk might put one: on a vowel of the word.
  const vowels = [...lower].map((c, i) => ("aeiou".includes(c) ? i : -1)).filter((i) => i >= 0);
  if (vowels.length === 0) return lower;
  const i = rng.pick(vowels);
  const acute: Record<string, string> = { a: "á", e: "é", i: "í", o: "ó", u: "ú" };
  return lower.slice(0, i) + acute[lower[i] as string] + lower.slice(i + 1);
}

/** One typo in a word of four letters or more: a letter inserted, deleted, substituted, or two swapped. */
function typo(word: string, rng: Rng): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const w = word.toLowerCase();
  const i = rng.int(1, w.length - 2); // clerks rarely mistype the first letter; keep it (a harder eval would not)
  switch (rng.int(0, 3)) {
    case 0:
      return w.slice(0, i) + rng.pick([...letters]) + w.slice(i);
    case 1:
      return w.slice(0, i) + w.slice(i + 1);
    case 2: {
      let c = rng.pick([...letters]);
      while (c === w[i]) c = rng.pick([...letters]);
      return w.slice(0, i) + c + w.slice(i + 1);
    }
    default:
      return w[i] === w[i + 1]
        ? w.slice(0, i) + w.slice(i + 1)
        : w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  }
}

/** Where a word can take a typo (four letters or more), a random one; otherwise undefined. */
function typoIn(words: string[], rng: Rng): string[] | undefined {
  const long = words.map((w, i) => (w.length >= 5 ? i : -1)).filter((i) => i >= 0);
  if (long.length === 0) return undefined;
  const i = rng.pick(long);
  return words.map((w, k) => (k === i ? typo(w, rng) : w));
}

/** Characters that render as nothing: zero-width space, soft hyphen, word joiner, U+FEFF, zero-width joiner. */
const INVISIBLES = ["\u200B", "\u00AD", "\u2060", "\uFEFF", "\u200D"];
/** Latin letters and a Cyrillic or Greek look-alike of each. */
const LOOK_ALIKES: Record<string, string[]> = {
  a: ["\u0430"],
  c: ["\u0441"],
  e: ["\u0435"],
  i: ["\u0456"],
  j: ["\u0458"],
  o: ["\u043E", "\u03BF"],
  p: ["\u0440", "\u03C1"],
  s: ["\u0455"],
  x: ["\u0445"],
  y: ["\u0443"],
  A: ["\u0410", "\u0391"],
  B: ["\u0412", "\u0392"],
  E: ["\u0415", "\u0395"],
  H: ["\u041D", "\u0397"],
  I: ["\u0406", "\u0399"],
  K: ["\u041A", "\u039A"],
  M: ["\u041C", "\u039C"],
  N: ["\u039D"],
  O: ["\u041E", "\u039F"],
  P: ["\u0420", "\u03A1"],
  T: ["\u0422", "\u03A4"],
  X: ["\u0425", "\u03A7"],
  Z: ["\u0396"],
};

/** `word` with an invisible character slipped in after its first letter and, for a long word, another later. */
function withInvisible(word: string, rng: Rng): string {
  const at = [1, ...(word.length > 5 ? [rng.int(3, word.length - 1)] : [])];
  let out = "";
  [...word].forEach((c, i) => {
    out += c;
    if (at.includes(i + 1)) out += rng.pick(INVISIBLES);
  });
  return out;
}

/** `word` with each letter that has a look-alike replaced by one with probability `p` (at least one when any can). */
function withLookAlikes(word: string, p: number, rng: Rng): string {
  const chars = [...word];
  const can = chars.map((c, i) => (LOOK_ALIKES[c] ? i : -1)).filter((i) => i >= 0);
  if (can.length === 0) return word;
  const forced = rng.pick(can);
  return chars
    .map((c, i) =>
      LOOK_ALIKES[c] && (i === forced || rng.chance(p)) ? rng.pick(LOOK_ALIKES[c] as string[]) : c,
    )
    .join("");
}

/** Fullwidth forms of ASCII letters (U+FF21-FF5A), as pasted from an East Asian input method. */
const fullwidth = (word: string) =>
  [...word]
    .map((c) => (/[A-Za-z]/.test(c) ? String.fromCodePoint((c.codePointAt(0) as number) + 0xfee0) : c))
    .join("");

const SPELLINGS = new Map<string, string[]>();
for (const group of VARIANT_GROUPS)
  for (const s of group)
    SPELLINGS.set(
      s,
      group.filter((g) => g !== s),
    );

/** The variant of a listed name, or undefined where the name has nothing that variant changes. */
function variant(kind: VariantKind, name: string, s: SplitName, rng: Rng): string | undefined {
  const words = [...s.given, ...s.surnames];
  switch (kind) {
    case "exact":
      return name;
    case "reordered":
      return natural(s);
    case "caps":
      return natural(s).toUpperCase();
    case "accents":
      return words.map((w) => title(accented(w, rng))).join(" ");
    case "punctuation":
      return s.surnames.length >= 2
        ? `${s.given.map(title).join(" ")} ${s.surnames.map(title).join("-")}.`
        : `${s.given.map((g) => `${title(g)}.`).join(" ")} ${s.surnames.map(title).join(" ")}`;
    case "surnames-swapped":
      return s.surnames.length === 2
        ? [...s.given, s.surnames[1] as string, s.surnames[0] as string].map(title).join(" ")
        : undefined;
    case "surname-missing":
      return s.surnames.length >= 2
        ? [...s.given, ...s.surnames.slice(0, -1)].map(title).join(" ")
        : undefined;
    case "middle-missing":
      return s.given.length >= 2 ? [s.given[0] as string, ...s.surnames].map(title).join(" ") : undefined;
    case "typo": {
      const t = typoIn(words, rng);
      return t ? t.map(title).join(" ") : undefined;
    }
    case "transliteration": {
      const i = words.findIndex((w) => SPELLINGS.has(w.toLowerCase()));
      if (i < 0) return undefined;
      const other = rng.pick(SPELLINGS.get((words[i] as string).toLowerCase()) as string[]);
      return words.map((w, k) => title(k === i ? other : w)).join(" ");
    }
    case "surname-missing+typo": {
      if (s.surnames.length < 2) return undefined;
      const t = typoIn([...s.given, ...s.surnames.slice(0, -1)], rng);
      return t ? t.map(title).join(" ") : undefined;
    }
    case "invisible":
      // In every surname: the reviewer's evasion was one zero-width space in one.
      return [...s.given.map(title), ...s.surnames.map((w) => withInvisible(title(w), rng))].join(" ");
    case "fullwidth":
      return words.map((w, k) => (k === 0 || rng.chance(0.5) ? fullwidth(title(w)) : title(w))).join(" ");
    case "look-alikes":
      return natural(s)
        .split(" ")
        .map((w) => withLookAlikes(w, 0.3, rng))
        .join(" ");
    case "mixed-scripts":
      // Every disguise at once: upper case, look-alikes of two scripts, an invisible character, a fullwidth letter.
      return [...s.given, ...s.surnames]
        .map((w, k) => {
          const word = withLookAlikes(w.toUpperCase(), 0.5, rng);
          return k === words.length - 1
            ? fullwidth(word.slice(0, 1)) + word.slice(1)
            : withInvisible(word, rng);
        })
        .join(" ");
  }
}

const rate = (): Rate => ({ hits: 0, total: 0 });
const pct = (p: number) => Math.round(p * 1000) / 1000;
export const ratio = (r: Rate) => (r.total === 0 ? Number.NaN : r.hits / r.total);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** A random birthdate in 1950-2004 (clients of a payment provider), full. */
function randomDate(rng: Rng): string {
  const y = rng.int(1950, 2004);
  const m = rng.int(1, 12);
  const d = rng.int(1, 28);
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

export function runEval(options: EvalOptions): EvalReport {
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS["ofac-sdn"];
  const floor = options.floor ?? thresholds.review;
  const rng = new Rng(options.seed);
  // The disguised variants draw from a generator of their own, so that adding them left every other query and
  // decoy of a seed as it was (and the published rates comparable).
  const disguiseRng = new Rng(options.seed + 7919);
  const list = loadList();
  const matcher = new PersonMatcher(list);
  const times: number[] = [];
  const search = (q: PersonQuery) => {
    const t = performance.now();
    const r = matcher.search(q, { floor, limit: 10 });
    times.push(performance.now() - t);
    return r;
  };
  const best = (cs: Candidate[]) => (cs[0] ? `${cs[0].matchedName} ${cs[0].score}` : "none");

  // Positives: listed persons whose primary name is written "SURNAMES, Given" (the variants need the split).
  const persons = list.filter((e) => e.type === "person" && split(e.names[0] as string));
  const drawn = rng.shuffle(persons).slice(0, options.persons);
  const positives = Object.fromEntries(
    VARIANT_KINDS.map((k) => [
      k,
      { reviewOrMatch: rate(), match: rate(), withDate: rate(), withoutDate: rate() },
    ]),
  ) as EvalReport["positives"];
  const misses: EvalReport["misses"] = [];
  for (const entry of drawn) {
    const name = entry.names[0] as string;
    const s = split(name) as SplitName;
    for (const kind of VARIANT_KINDS) {
      const disguised = DISGUISES.has(kind);
      const r = disguised ? disguiseRng : rng;
      const q = variant(kind, name, s, r);
      // A variant that leaves one token (a title or a particle kept: "Haji Alizai", "Paolo Di") is no client's
      // name record; leave it out rather than count it.
      if (!q || normaliseName(q, "person").length < 2) continue;
      // Half the queries carry the list's birthdate (a client record has one; whether the list does varies).
      const date = entry.dates.length > 0 && r.chance(0.5) ? r.pick(entry.dates) : undefined;
      const result = search({ name: q, type: "person", ...(date ? { date } : {}) });
      const hit = result.candidates.find((c) => c.entry.entryId === entry.entryId);
      const p = positives[kind];
      const flagged = hit !== undefined && hit.score >= thresholds.review;
      const matched = hit !== undefined && hit.score >= thresholds.match;
      p.reviewOrMatch.total++;
      p.match.total++;
      if (flagged) p.reviewOrMatch.hits++;
      if (matched) p.match.hits++;
      const split2 = date ? p.withDate : p.withoutDate;
      split2.total++;
      if (flagged) split2.hits++;
      if (!flagged)
        misses.push({
          kind,
          query: `${q}${date ? ` (${date})` : ""}`,
          listed: name,
          best: best(result.candidates),
        });
    }
  }

  // Decoys. A decoy whose tokens are exactly a list name's is a real namesake of a listed person: left out.
  const listedNames = new Set<string>();
  for (const e of list) for (const n of e.names) listedNames.add(normaliseName(n, e.type).sort().join(" "));
  const common = loadCommonNames();
  const pickSurname = rankPicker(common.surnames, 0.8);
  const pickGiven = rankPicker(common.given, 0.8);
  const givenNames = () => (rng.chance(0.35) ? [pickGiven(rng), pickGiven(rng)] : [pickGiven(rng)]);
  let decoysSkipped = 0;
  const decoys = {} as EvalReport["decoys"];
  const falseCandidates: EvalReport["falseCandidates"] = [];
  const commonWithoutDate = { queries: 0, flagged: 0, matched: 0 };
  const listedSurnames = persons.map((e) => split(e.names[0] as string) as SplitName);
  for (const kind of DECOY_KINDS) {
    const d = { queries: 0, flagged: 0, matched: 0, ruledOut: 0, withDate: true };
    for (let i = 0; i < options.decoys; i++) {
      let name: string;
      let date = randomDate(rng);
      let target: IndexedEntry | undefined;
      if (kind === "common") {
        // Most Mexican clients carry both surnames; some records have only the paternal one.
        const surnames = rng.chance(0.85) ? [pickSurname(rng), pickSurname(rng)] : [pickSurname(rng)];
        name = [...givenNames(), ...surnames].map(title).join(" ");
      } else if (kind === "shares-surname") {
        // A listed person's paternal surname, with a common given name and a common maternal surname.
        const listed = rng.pick(listedSurnames);
        name = [...givenNames(), listed.surnames[0] as string, pickSurname(rng)].map(title).join(" ");
      } else {
        // A listed person's very name, as the list writes it, and a birthdate years away from the list's.
        target = rng.pick(persons.filter((e) => e.dates.length > 0));
        name = natural(split(target.names[0] as string) as SplitName);
        const years = target.dates.map((x) => Number(x.slice(0, 4)));
        let y = rng.int(1940, 2004);
        while (years.some((x) => Math.abs(x - y) <= 2)) y = rng.int(1940, 2004);
        date = `${y}${randomDate(rng).slice(4)}`;
      }
      if (kind !== "namesake-other-dob" && listedNames.has(normaliseName(name, "person").sort().join(" "))) {
        decoysSkipped++;
        continue;
      }
      const result = search({ name, type: "person", date });
      d.queries++;
      const flagged = result.candidates.filter((c) => c.score >= thresholds.review);
      if (flagged.length > 0) {
        d.flagged++;
        falseCandidates.push({
          kind,
          query: `${name} (${date})`,
          candidate: flagged[0]?.matchedName ?? "",
          score: flagged[0]?.score ?? 0,
        });
      }
      if (flagged.some((c) => c.score >= thresholds.match)) d.matched++;
      if (target && result.ruledOut.some((r) => r.entry.entryId === target?.entryId)) d.ruledOut++;
      if (kind === "common") {
        // The same name without a birthdate: what the name alone brings up.
        const bare = search({ name, type: "person" });
        commonWithoutDate.queries++;
        const f = bare.candidates.filter((c) => c.score >= thresholds.review);
        if (f.length > 0) {
          commonWithoutDate.flagged++;
          falseCandidates.push({
            kind: "common (no date)",
            query: name,
            candidate: f[0]?.matchedName ?? "",
            score: f[0]?.score ?? 0,
          });
        }
        if (f.some((c) => c.score >= thresholds.match)) commonWithoutDate.matched++;
      }
    }
    decoys[kind] = d;
  }

  return {
    options,
    thresholds,
    entries: matcher.size,
    names: matcher.names,
    positives,
    decoys,
    commonWithoutDate,
    decoysSkipped,
    p50Ms: pct(percentile(times, 0.5)),
    p95Ms: pct(percentile(times, 0.95)),
    misses,
    falseCandidates,
  };
}

/** All positives together. */
export function overall(report: EvalReport, which: "reviewOrMatch" | "match"): Rate {
  const r = rate();
  for (const k of VARIANT_KINDS) {
    r.hits += report.positives[k][which].hits;
    r.total += report.positives[k][which].total;
  }
  return r;
}
