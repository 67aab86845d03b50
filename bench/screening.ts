// Benchmark `screening`: screening a client base of BENCH_SCREENING_PERSONS persons (default 10,000) against every
// list of persons at once, on each database of BENCH_DATABASES, through the real service (a child process,
// bench/server.ts) and POST /v1/screening/persons. Measured: (1) each list's import (importPersonList in one
// transaction per list, as `vigia lists import` writes it), the matcher's index build (the first
// Screener.current(), in this process) and the service's resident set before and after its own build (its first
// screening builds it); (2) one person per request, sequentially: p50/p95/p99 per person; (3) the same persons
// in requests of 100, sequentially: persons/s and p95 per request. Also the verdicts, the recall on the seeded
// listed persons and the ordinary clients that got a candidate: a sanity line, not a target.
//
// Why the populations look as they do: the matcher's cost is driven by how long the posting lists of the query's
// tokens are, that is by how common the names are in the index, and a real PEP list of Latin American officials is
// full of "José Luis Hernández García". So the lists are built near their real sizes (BENCH_SCREENING_SCALE scales
// them, default 1: OFAC SDN 12,000 entries, UN 1,000, SAT 69-B 12,000, the UIF's LPB 2,000, an OpenSanctions PEP
// source 150,000) from real names rather than from the names the matcher was tuned on: OFAC's and the UN's from
// the real SDN entries of eval/persons/lists/ofac-sdn-2021-04.jsonl, recombined (one entry's surnames with
// another's given names, aliases, dates, programmes) up to the size; the Mexican and Latin American ones (PEPs,
// LPB, SAT persons, the clients) drawn from eval/persons/lists/common-names.json with a Zipf-like frequency
// (1/rank^0.65 for surnames, 1/rank^0.8 for given names, so that "hernández" is about 4 % of surnames as in
// Mexico) plus a long tail of made-up rarer surnames and given names (1/rank^0.5, continuing the common ones),
// as a real population has; SAT 69-B is mostly companies ("COMERCIALIZADORA … S.A. DE C.V.", with RFCs). The
// client base is 97 % ordinary clients from the same name distribution (with birthdates, MX nationality, some
// RFCs and CURPs: many are namesakes of some PEP, as real clients are) and 3 % listed persons under the variants a
// client record carries (as listed, accents dropped, surnames swapped, one surname missing, a typo). Everything is
// seeded.
//
// Targets: p95 ≤ 50 ms per person in single requests; ≥ 1,000 persons/s in requests of 100; every response 200.
// BENCH_DATABASES picks the databases (PGlite in a temporary directory; PostgreSQL at BENCH_DATABASE_URL, in a
// fresh schema dropped afterwards). A run at other than the default persons and scale writes its own section,
// `screening-PERSONS-SCALE`.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate } from "../src/platform/db/migrate.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import { Rng, rankPicker } from "../src/platform/rng.ts";
import type { DB } from "../src/schema.ts";
import {
  type Identifier,
  importPersonList,
  type ListEntry,
  type ListInfo,
  type ListKind,
  type PersonInput,
  type PersonResult,
  PROJECT_LIST_KINDS,
  Screener,
} from "../src/screening/index.ts";
import {
  type Benchmark,
  type ChildServer,
  machine,
  postgresAnswers,
  ROOT,
  startChild,
  wantedDatabases,
} from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const PERSONS = Math.max(1, Math.floor(Number(process.env.BENCH_SCREENING_PERSONS || 10_000)));
const SCALE = Number(process.env.BENCH_SCREENING_SCALE || 1);
const BATCH = 100;
const LISTED_SHARE = 0.03;
/** Single requests sent first and not counted (the service's JIT, connection set-up). */
const WARMUP = Math.min(200, PERSONS);
const TARGET_P95_MS = 50;
const TARGET_PERSONS_PER_S = 1_000;
const SEED = 20_240_601;

const DATA = path.join(ROOT, "eval", "persons", "lists");
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const mb = (bytes: number | undefined) => (bytes === undefined ? "—" : int(bytes / 2 ** 20));

// ---------------------------------------------------------------------------------------------------------
// Sizes

interface Size {
  persons: number;
  entities: number;
}

const FULL: Record<ListKind, Size> = {
  "ofac-sdn": { persons: 6_000, entities: 6_000 },
  un: { persons: 730, entities: 270 },
  "sat-69b": { persons: 1_200, entities: 10_800 },
  "mx-lpb": { persons: 1_850, entities: 150 },
  ftm: { persons: 150_000, entities: 0 },
};
const scaled = (n: number) => (n === 0 ? 0 : Math.max(1, Math.round(n * SCALE)));
const SIZES = Object.fromEntries(
  Object.entries(FULL).map(([kind, s]) => [
    kind,
    { persons: scaled(s.persons), entities: scaled(s.entities) },
  ]),
) as Record<ListKind, Size>;
const KINDS: ListKind[] = ["ofac-sdn", "un", "sat-69b", "mx-lpb", "ftm"];
const TOTAL_ENTRIES = KINDS.reduce((n, k) => n + SIZES[k].persons + SIZES[k].entities, 0);

// ---------------------------------------------------------------------------------------------------------
// Names

/** A person's name in parts, as a client record or a list holds it (any case, accents as written). */
interface Name {
  given: string[];
  surnames: string[];
}

/** A listed person a client may be: what a seeded listed query is built from. */
interface Listed {
  kind: ListKind;
  entryId: string;
  name: Name;
  date: string | undefined;
  country: string | undefined;
  identifiers: Identifier[];
}

const strip = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
const title = (w: string) =>
  w
    .toLowerCase()
    .split("-")
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join("-");
const natural = (n: Name) => [...n.given, ...n.surnames].map(title).join(" ");
const upper = (s: string) => strip(s).toUpperCase();

/** Made-up words that read as Spanish surnames or given names (the long tail a real population has). */
function madeUpWords(rng: Rng, count: number, endings: string[], avoid: Set<string>): string[] {
  const onsets = [
    "b",
    "c",
    "ch",
    "d",
    "f",
    "g",
    "gu",
    "j",
    "l",
    "ll",
    "m",
    "n",
    "p",
    "qu",
    "r",
    "s",
    "t",
    "v",
  ];
  const more = ["br", "cr", "gr", "pr", "tr", "z", "y", "x", "h", "rr", "ñ"];
  const vowels = ["a", "e", "i", "o", "u", "ia", "ue", "ai"];
  const out = new Set<string>();
  while (out.size < count) {
    const syllables = rng.int(1, 2);
    let w = rng.chance(0.2) ? rng.pick(["a", "e", "o", "i"]) : "";
    for (let i = 0; i < syllables; i++) {
      const onset = i > 0 && rng.chance(0.3) ? rng.pick(more) : rng.pick(onsets);
      if (i === 0 && (onset === "rr" || onset === "ñ")) continue;
      w += onset + rng.pick(vowels);
    }
    w = w.replace(/[aeiou]+$/, "") + rng.pick(endings);
    if (w.length >= 4 && !avoid.has(strip(w))) out.add(w);
  }
  return [...out];
}

interface NameSources {
  surname: (rng: Rng) => string;
  given: (rng: Rng) => string;
}

function nameSources(): NameSources {
  const common = JSON.parse(fs.readFileSync(path.join(DATA, "common-names.json"), "utf8")) as {
    surnames: string[];
    given: string[];
  };
  const known = new Set([...common.surnames, ...common.given].map(strip));
  // The tail is the same whatever the scale: its own generator.
  const tailRng = new Rng(SEED + 1);
  const tailSurnames = madeUpWords(
    tailRng,
    30_000,
    [
      "ez",
      "es",
      "os",
      "as",
      "ero",
      "era",
      "ana",
      "ano",
      "illo",
      "ado",
      "eda",
      "ón",
      "al",
      "ar",
      "ín",
      "aga",
      "ola",
      "ete",
      "uz",
    ],
    known,
  );
  const tailGiven = madeUpWords(
    tailRng,
    3_000,
    ["o", "a", "el", "ín", "ia", "er", "ando", "ina", "ardo"],
    known,
  );
  const commonSurname = rankPicker(common.surnames, 0.65);
  // The tail is flatter (1/rank^0.5): its first names are about as frequent as the last of the common ones
  // (~0.15 % of surnames), its last ones appear a few times in 300,000 surnames.
  const tailSurname = rankPicker(tailSurnames, 0.5);
  const commonGiven = rankPicker(common.given, 0.8);
  const tailGivenPick = rankPicker(tailGiven, 0.5);
  return {
    // About 60 % of Mexicans carry one of the ~140 most frequent surnames; the rest a long tail.
    surname: (rng) => (rng.chance(0.6) ? commonSurname(rng) : tailSurname(rng)),
    given: (rng) => (rng.chance(0.85) ? commonGiven(rng) : tailGivenPick(rng)),
  };
}

/** A Latin American person's name: one or two given names, a paternal and (mostly) a maternal surname. */
function latinName(rng: Rng, src: NameSources): Name {
  const given = [src.given(rng)];
  if (rng.chance(0.45)) {
    let second = src.given(rng);
    while (second === given[0]) second = src.given(rng);
    given.push(second);
  }
  const surnames = [src.surname(rng)];
  if (rng.chance(0.97)) surnames.push(src.surname(rng));
  return { given, surnames };
}

function birthdate(rng: Rng, from: number, to: number): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${rng.int(from, to)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ALNUM = `${LETTERS}0123456789`;
const chars = (rng: Rng, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[rng.int(0, alphabet.length - 1)]).join("");

/** RFC of a persona física: as the SAT derives it from the name and the birthdate, plus a random homoclave. */
function personRfc(rng: Rng, n: Name, date: string): string {
  const p = upper(n.surnames[0] ?? "X").replace(/[^A-Z]/g, "") || "X";
  const vowel = p.slice(1).match(/[AEIOU]/)?.[0] ?? "X";
  const m = upper(n.surnames[1] ?? "X").charAt(0) || "X";
  const g = upper(n.given[0] ?? "X").charAt(0) || "X";
  return `${p.charAt(0)}${vowel}${m}${g}${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}${chars(rng, ALNUM, 3)}`;
}

function curp(rng: Rng, rfc: string): string {
  const state = rng.pick(["DF", "MC", "JC", "NL", "PL", "VZ", "GT", "BC", "CH", "SL"]);
  return `${rfc.slice(0, 10)}${rng.pick(["H", "M"])}${state}${chars(rng, "BCDFGHJKLMNPRSTVXZ", 3)}${chars(rng, ALNUM, 1)}${rng.int(0, 9)}`;
}

// ---------------------------------------------------------------------------------------------------------
// The lists

export interface Population {
  info: ListInfo;
  entries: ListEntry[];
  persons: number;
  entities: number;
  listed: Listed[];
}

/** "SURNAMES, Given Names" (OFAC's form) into parts. */
function splitComma(name: string): Name | undefined {
  const parts = name.split(",");
  if (parts.length !== 2) return undefined;
  const surnames = (parts[0] as string).trim().split(/\s+/).filter(Boolean);
  const given = (parts[1] as string).trim().split(/\s+/).filter(Boolean);
  return surnames.length && given.length ? { surnames, given } : undefined;
}

const ofacForm = (n: Name) =>
  `${n.surnames.map(upper).join(" ")}, ${n.given.map((g) => title(strip(g))).join(" ")}`;

/** One typo in a word of five letters or more (not its first letter): inserted, deleted, substituted, swapped. */
function typo(word: string, rng: Rng): string {
  const w = word.toLowerCase();
  const i = rng.int(1, w.length - 2);
  switch (rng.int(0, 3)) {
    case 0:
      return w.slice(0, i) + rng.pick([...LETTERS.toLowerCase()]) + w.slice(i);
    case 1:
      return w.slice(0, i) + w.slice(i + 1);
    case 2: {
      let c = rng.pick([...LETTERS.toLowerCase()]);
      while (c === w[i]) c = rng.pick([...LETTERS.toLowerCase()]);
      return w.slice(0, i) + c + w.slice(i + 1);
    }
    default:
      return w[i] === w[i + 1]
        ? w.slice(0, i) + w.slice(i + 1)
        : w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  }
}

const LATIN_PROGRAMS = /^(SDNT|SDNTK|TCO|CUBA|VENEZUELA|NICARAGUA|ILLICIT-DRUGS)/;

function ofacAndUn(rng: Rng): { ofac: Population; un: Population } {
  const real = fs
    .readFileSync(path.join(DATA, "ofac-sdn-2021-04.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ListEntry);
  const persons = real.filter((e) => e.type === "person");
  const entities = real.filter((e) => e.type === "entity");
  const splittable = persons
    .map((e) => ({ e, name: splitComma(e.names[0] as string) }))
    .filter((p): p is { e: ListEntry; name: Name } => p.name !== undefined);
  const nicknames = persons.flatMap((e) =>
    e.names.slice(1).filter((a) => !a.includes(",") && a.split(/\s+/).length <= 2),
  );
  const dated = persons.filter((e) => e.dates.length > 0);
  let nextId = 40_000;

  const listedOf = (kind: ListKind, e: ListEntry, name: Name | undefined): Listed[] =>
    name
      ? [
          {
            kind,
            entryId: e.entryId,
            name,
            date: e.dates.find((d) => d.length === 10),
            country: e.countries[0],
            identifiers: e.identifiers,
          },
        ]
      : [];

  /** A person made of two real ones: the surnames of one, the given names of another, and their particulars. */
  const recombinedPerson = (sources: typeof splittable): { entry: ListEntry; name: Name } => {
    const a = rng.pick(sources);
    const b = rng.pick(sources);
    const name: Name = { surnames: a.name.surnames, given: b.name.given };
    const names = [ofacForm(name)];
    const aliases = rng.chance(0.8) ? rng.int(1, 3) : 0;
    for (let i = 0; i < aliases; i++) {
      const r = rng.next();
      if (r < 0.35) names.push(ofacForm({ surnames: a.name.surnames, given: rng.pick(sources).name.given }));
      else if (r < 0.65 && nicknames.length) names.push(rng.pick(nicknames));
      else {
        const words = [...name.surnames, ...name.given];
        const long = words.filter((w) => w.length >= 5);
        const changed = long.length ? rng.pick(long) : undefined;
        names.push(
          ofacForm({
            surnames: name.surnames.map((w) => (w === changed ? typo(w, rng).toUpperCase() : w)),
            given: name.given.map((w) => (w === changed ? typo(w, rng) : w)),
          }),
        );
      }
    }
    const identifiers: Identifier[] = rng.chance(0.3)
      ? [
          {
            kind: rng.pick(["passport", "national_id"] as const),
            value: `${chars(rng, LETTERS, 1)}${chars(rng, "0123456789", rng.int(6, 9))}`,
            ...(a.e.countries[0] ? { country: a.e.countries[0] } : {}),
          },
        ]
      : [];
    const entry: ListEntry = {
      entryId: String(nextId++),
      type: "person",
      names: [...new Set(names)],
      dates: rng.chance(0.6) && dated.length ? [...rng.pick(dated).dates] : [],
      countries: [...a.e.countries],
      identifiers,
      programs: [...a.e.programs],
    };
    return { entry, name };
  };

  /** An entity made of two real ones: the first half of one's name, the second half of another's. */
  const recombinedEntity = (sources: ListEntry[], id: string): ListEntry => {
    const a = rng.pick(sources);
    const b = rng.pick(sources);
    const wa = (a.names[0] as string).split(/\s+/);
    const wb = (b.names[0] as string).split(/\s+/);
    const name = [...wa.slice(0, Math.ceil(wa.length / 2)), ...wb.slice(Math.floor(wb.length / 2))].join(" ");
    const names = [name];
    if (rng.chance(0.2)) {
      const c = rng.pick(sources);
      const wc = (c.names[0] as string).split(/\s+/);
      names.push(
        [...wc.slice(0, Math.ceil(wc.length / 2)), ...wa.slice(Math.floor(wa.length / 2))].join(" "),
      );
    }
    return {
      entryId: id,
      type: "entity",
      names: [...new Set(names)],
      dates: [],
      countries: [...a.countries],
      identifiers: rng.chance(0.2)
        ? [{ kind: "tax_id", value: chars(rng, "0123456789", rng.int(8, 11)) }]
        : [],
      programs: [...a.programs],
    };
  };

  // OFAC SDN: the real cut first (all of it at full size, a sample when scaled down), then recombinations.
  const ofac: Population = {
    info: { kind: "ofac-sdn", version: "bench-ofac", listDate: "2021-04-23", source: "bench/screening.ts" },
    entries: [],
    persons: 0,
    entities: 0,
    listed: [],
  };
  for (const e of rng.shuffle(persons).slice(0, SIZES["ofac-sdn"].persons)) {
    ofac.entries.push(e);
    ofac.listed.push(...listedOf("ofac-sdn", e, splitComma(e.names[0] as string)));
  }
  while (ofac.entries.length < SIZES["ofac-sdn"].persons) {
    const { entry, name } = recombinedPerson(splittable);
    ofac.entries.push(entry);
    ofac.listed.push(...listedOf("ofac-sdn", entry, name));
  }
  ofac.persons = ofac.entries.length;
  for (const e of rng.shuffle(entities).slice(0, SIZES["ofac-sdn"].entities)) ofac.entries.push(e);
  while (ofac.entries.length < ofac.persons + SIZES["ofac-sdn"].entities)
    ofac.entries.push(recombinedEntity(entities, String(nextId++)));
  ofac.entities = ofac.entries.length - ofac.persons;

  // UN: the non-Latin American OFAC persons and entities (the UN's are mostly the same people), written in the
  // UN's order (given names first, upper case), with the UN's reference numbers and list types.
  const unTypes = rankPicker(
    ["Al-Qaida", "Taliban", "DPRK", "Iraq", "Libya", "Somalia", "DRC", "Yemen", "Mali"],
    1,
  );
  const foreign = splittable.filter((p) => !p.e.programs.some((x) => LATIN_PROGRAMS.test(x)));
  const foreignEntities = entities.filter((e) => !e.programs.some((x) => LATIN_PROGRAMS.test(x)));
  const un: Population = {
    info: { kind: "un", version: "bench-un", listDate: "2021-04-20", source: "bench/screening.ts" },
    entries: [],
    persons: SIZES.un.persons,
    entities: SIZES.un.entities,
    listed: [],
  };
  const unPersons = rng.shuffle(foreign).slice(0, Math.round(SIZES.un.persons * 0.6));
  for (let i = 0; i < SIZES.un.persons; i++) {
    const source = unPersons[i] ?? recombinedPerson(foreign);
    const e = "e" in source ? source.e : source.entry;
    const name = source.name;
    const entry: ListEntry = {
      entryId: `QDi.${String(i + 1).padStart(3, "0")}`,
      type: "person",
      names: [
        [...name.given, ...name.surnames].map(upper).join(" "),
        ...e.names.slice(1).map((a) => {
          const parts = splitComma(a);
          return parts ? [...parts.given, ...parts.surnames].map(upper).join(" ") : a;
        }),
      ],
      dates: [...e.dates],
      countries: [...e.countries],
      identifiers: [...e.identifiers],
      programs: [unTypes(rng)],
    };
    entry.names = [...new Set(entry.names)];
    un.entries.push(entry);
    un.listed.push(...listedOf("un", entry, name));
  }
  const unEntities = rng.shuffle(foreignEntities).slice(0, Math.round(SIZES.un.entities * 0.6));
  for (let i = 0; i < SIZES.un.entities; i++) {
    const id = `QDe.${String(i + 1).padStart(3, "0")}`;
    const e = unEntities[i];
    un.entries.push(
      e ? { ...e, entryId: id, programs: [unTypes(rng)] } : recombinedEntity(foreignEntities, id),
    );
  }
  return { ofac, un };
}

const COMPANY_HEADS = [
  "COMERCIALIZADORA",
  "SERVICIOS",
  "CONSTRUCTORA",
  "DISTRIBUIDORA",
  "GRUPO",
  "CONSULTORIA",
  "CORPORATIVO",
  "ADMINISTRADORA",
  "SOLUCIONES",
  "TRANSPORTES",
  "INMOBILIARIA",
  "PROMOTORA",
  "OPERADORA",
  "ASESORES",
  "INDUSTRIAS",
  "EDIFICACIONES",
  "MULTISERVICIOS",
  "ABASTECEDORA",
  "IMPULSORA",
  "DESARROLLOS",
  "PROVEEDORA",
  "ESTRATEGIAS",
  "TECNOLOGIAS",
  "OUTSOURCING",
];
const COMPANY_TAILS = [
  "",
  "",
  "",
  " DEL NORTE",
  " DEL BAJIO",
  " DEL SURESTE",
  " INTEGRALES",
  " EMPRESARIALES",
  " Y ASOCIADOS",
  " Y LOGISTICA",
  " CORPORATIVOS",
  " PROFESIONALES",
  " DE MEXICO",
  " INDUSTRIALES",
];
const LEGAL = rankPicker(
  ["S.A. DE C.V.", "S. DE R.L. DE C.V.", "S.C.", "S.A.P.I. DE C.V.", "S.A.", "S.C. DE R.L. DE C.V."],
  1.6,
);

/** A Mexican company's name as the SAT writes it. */
function companyName(rng: Rng, src: NameSources): string {
  const head = rankPicker(COMPANY_HEADS, 0.7)(rng);
  const core =
    rng.next() < 0.5
      ? upper(src.surname(rng))
      : rng.chance(0.6)
        ? `${upper(src.surname(rng))}${upper(src.surname(rng)).slice(0, 3)}`
        : `${upper(src.given(rng))} ${upper(src.surname(rng))}`;
  return `${head} ${core}${rng.pick(COMPANY_TAILS)}, ${LEGAL(rng)}`;
}

function companyRfc(rng: Rng, name: string): string {
  const initials = name
    .replace(/,.*$/, "")
    .split(/\s+/)
    .filter((w) => !["DEL", "DE", "Y", "LA", "EL", "LOS"].includes(w))
    .map((w) => w.charAt(0))
    .join("")
    .padEnd(3, "X")
    .slice(0, 3);
  const date = birthdate(rng, 1995, 2020);
  return `${initials}${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}${chars(rng, ALNUM, 3)}`;
}

const SITUATIONS = rankPicker(["Definitivo", "Presunto", "Desvirtuado", "Sentencia Favorable"], 2.2);
const LATAM = rankPicker(
  ["MX", "CO", "PE", "AR", "GT", "CL", "EC", "HN", "VE", "SV", "BO", "DO", "PA", "PY", "CR", "NI", "UY"],
  1.1,
);

function mexicanLists(rng: Rng, src: NameSources): Population[] {
  // SAT 69-B: companies with RFCs, and some personas físicas written "PATERNO MATERNO NOMBRES".
  const sat: Population = {
    info: { kind: "sat-69b", version: "bench-sat", listDate: "2024-05-31", source: "bench/screening.ts" },
    entries: [],
    persons: SIZES["sat-69b"].persons,
    entities: SIZES["sat-69b"].entities,
    listed: [],
  };
  const rfcs = new Set<string>();
  const unique = (make: () => string) => {
    let rfc = make();
    while (rfcs.has(rfc)) rfc = make();
    rfcs.add(rfc);
    return rfc;
  };
  const people = rng.shuffle([
    ...Array.from({ length: sat.persons }, () => "person" as const),
    ...Array.from({ length: sat.entities }, () => "entity" as const),
  ]);
  for (const type of people) {
    if (type === "entity") {
      const name = companyName(rng, src);
      const rfc = unique(() => companyRfc(rng, name));
      sat.entries.push({
        entryId: rfc,
        type,
        names: [name],
        dates: [],
        countries: ["MX"],
        identifiers: [{ kind: "rfc", value: rfc, country: "MX" }],
        programs: [SITUATIONS(rng)],
      });
    } else {
      const name = latinName(rng, src);
      const date = birthdate(rng, 1950, 1995);
      const rfc = unique(() => personRfc(rng, name, date));
      const identifiers: Identifier[] = [{ kind: "rfc", value: rfc, country: "MX" }];
      sat.entries.push({
        entryId: rfc,
        type,
        names: [[...name.surnames, ...name.given].map(upper).join(" ")],
        dates: [],
        countries: ["MX"],
        identifiers,
        programs: [SITUATIONS(rng)],
      });
      sat.listed.push({ kind: "sat-69b", entryId: rfc, name, date, country: "MX", identifiers });
    }
  }

  // The UIF's Lista de Personas Bloqueadas: mostly persons, with birthdates, RFC and CURP when known.
  const lpb: Population = {
    info: { kind: "mx-lpb", version: "bench-lpb", listDate: "2024-06-15", source: "bench/screening.ts" },
    entries: [],
    persons: SIZES["mx-lpb"].persons,
    entities: SIZES["mx-lpb"].entities,
    listed: [],
  };
  for (let i = 0; i < lpb.persons; i++) {
    const name = latinName(rng, src);
    const date = birthdate(rng, 1950, 2000);
    const identifiers: Identifier[] = [];
    if (rng.chance(0.6)) {
      const rfc = personRfc(rng, name, date);
      identifiers.push({ kind: "rfc", value: rfc, country: "MX" });
      if (rng.chance(0.6)) identifiers.push({ kind: "curp", value: curp(rng, rfc), country: "MX" });
    }
    const names = [natural(name)];
    if (rng.chance(0.3))
      names.push(
        rng.chance(0.5)
          ? `El ${title(src.given(rng))}`
          : `${title(name.given[0] as string)} ${title(src.surname(rng))}`,
      );
    const entryId = `LPB-${String(i + 1).padStart(5, "0")}`;
    const country = rng.chance(0.85) ? "MX" : LATAM(rng);
    const known = rng.chance(0.8) ? date : rng.chance(0.5) ? date.slice(0, 4) : undefined;
    lpb.entries.push({
      entryId,
      type: "person",
      names,
      dates: known ? [known] : [],
      countries: [country],
      identifiers,
      programs: ["LPB"],
    });
    lpb.listed.push({
      kind: "mx-lpb",
      entryId,
      name,
      date: known?.length === 10 ? known : undefined,
      country,
      identifiers,
    });
  }
  for (let i = 0; i < lpb.entities; i++) {
    const name = companyName(rng, src);
    const rfc = companyRfc(rng, name);
    lpb.entries.push({
      entryId: `LPB-M${String(i + 1).padStart(4, "0")}`,
      type: "entity",
      names: [name],
      dates: [],
      countries: ["MX"],
      identifiers: [{ kind: "rfc", value: rfc, country: "MX" }],
      programs: ["LPB"],
    });
  }

  // An OpenSanctions PEP source: Latin American officials, two surnames, birthdates for fewer than half.
  const ftm: Population = {
    info: { kind: "ftm", version: "bench-peps", listDate: "2024-06-01", source: "bench/screening.ts" },
    entries: [],
    persons: SIZES.ftm.persons,
    entities: 0,
    listed: [],
  };
  for (let i = 0; i < ftm.persons; i++) {
    const name = latinName(rng, src);
    const country = rng.chance(0.55) ? "MX" : LATAM(rng);
    const date = rng.chance(0.45) ? birthdate(rng, 1940, 1995) : undefined;
    const known = date && rng.chance(0.3) ? date.slice(0, 4) : date;
    const names = [natural(name)];
    if (rng.chance(0.3)) names.push(ofacForm(name));
    const entryId = `NK-${(i * 7919 + 104_729).toString(36)}`;
    ftm.entries.push({
      entryId,
      type: "person",
      names,
      dates: known ? [known] : [],
      countries: [country],
      identifiers: [],
      programs: ["role.pep", `${country.toLowerCase()}_peps`],
    });
    ftm.listed.push({
      kind: "ftm",
      entryId,
      name,
      date: known?.length === 10 ? known : undefined,
      country,
      identifiers: [],
    });
  }
  return [sat, lpb, ftm];
}

export function populations(): Population[] {
  const rng = new Rng(SEED);
  const src = nameSources();
  const { ofac, un } = ofacAndUn(rng.fork());
  const [sat, lpb, ftm] = mexicanLists(rng.fork(), src) as [Population, Population, Population];
  return [ofac, un, sat, lpb, ftm];
}

// ---------------------------------------------------------------------------------------------------------
// The client base

const VARIANTS = ["as listed", "accents dropped", "surnames swapped", "surname missing", "typo"] as const;
type Variant = (typeof VARIANTS)[number];

export interface Query {
  person: PersonInput;
  /** for a seeded listed person: the entry it is, and the variant of its name */
  listed?: { kind: ListKind; entryId: string; variant: Variant };
}

function variantName(variant: Variant, n: Name, rng: Rng): string {
  switch (variant) {
    case "as listed":
      return natural(n);
    case "accents dropped":
      return strip(natural(n)) === natural(n) ? natural(n).toUpperCase() : strip(natural(n));
    case "surnames swapped":
      return n.surnames.length >= 2
        ? natural({ given: n.given, surnames: [...n.surnames.slice(1), n.surnames[0] as string] })
        : `${n.surnames.map(title).join(" ")} ${n.given.map(title).join(" ")}`;
    case "surname missing":
      return n.surnames.length >= 2
        ? natural({ given: n.given, surnames: n.surnames.slice(0, -1) })
        : n.given.length >= 2
          ? natural({ given: n.given.slice(0, 1), surnames: n.surnames })
          : natural(n);
    case "typo": {
      const words = [...n.given, ...n.surnames];
      const long = words.map((w, i) => (strip(w).length >= 5 ? i : -1)).filter((i) => i >= 0);
      if (long.length === 0) return natural(n);
      const at = rng.pick(long);
      return words.map((w, i) => title(i === at ? typo(strip(w), rng) : w)).join(" ");
    }
  }
}

/** How a client's name sits in a client record: as written, upper case without accents, or "SURNAMES, Given". */
function recorded(n: Name, rng: Rng): string {
  const r = rng.next();
  if (r < 0.6) return natural(n);
  if (r < 0.9) return upper(natural(n));
  return `${n.surnames.map(upper).join(" ")}, ${n.given.map(upper).join(" ")}`;
}

export function clientBase(lists: Population[], count: number, seed: number): Query[] {
  const rng = new Rng(seed);
  const src = nameSources();
  const byKind = new Map(lists.map((p) => [p.info.kind, p.listed]));
  // Listed clients come mostly from the PEPs (the largest list, and the one clients are most often on).
  const kindOf = rankPicker(["ftm", "ofac-sdn", "mx-lpb", "sat-69b", "un"] as ListKind[], 1.2);
  const listedCount = Math.round(count * LISTED_SHARE);
  const queries: Query[] = [];
  for (let i = 0; i < listedCount; i++) {
    let pool = byKind.get(kindOf(rng)) ?? [];
    if (pool.length === 0) pool = lists.flatMap((p) => p.listed);
    const l = rng.pick(pool);
    const variant = VARIANTS[i % VARIANTS.length] as Variant;
    const ids = l.identifiers.filter((id) => id.kind === "rfc" || id.kind === "curp");
    const person: PersonInput = { name: variantName(variant, l.name, rng) };
    if (l.date && rng.chance(0.7)) person.birthdate = l.date;
    if (rng.chance(0.8)) person.nationality = l.country ?? "MX";
    if (ids.length && rng.chance(0.3)) person.identifiers = [rng.pick(ids)];
    queries.push({ person, listed: { kind: l.kind, entryId: l.entryId, variant } });
  }
  while (queries.length < count) {
    const n = latinName(rng, src);
    const date = birthdate(rng, 1950, 2005);
    const person: PersonInput = { name: recorded(n, rng), birthdate: date, nationality: "MX" };
    const identifiers: Identifier[] = [];
    if (rng.chance(0.4)) {
      const rfc = personRfc(rng, n, date);
      identifiers.push({ kind: "rfc", value: rfc, country: "MX" });
      if (rng.chance(0.6)) identifiers.push({ kind: "curp", value: curp(rng, rfc), country: "MX" });
    }
    if (identifiers.length) person.identifiers = identifiers;
    queries.push({ person });
  }
  return rng.shuffle(queries);
}

// ---------------------------------------------------------------------------------------------------------
// Measuring

interface ImportFigure {
  kind: ListKind;
  entries: number;
  persons: number;
  entities: number;
  seconds: number;
}

interface Tally {
  clear: number;
  review: number;
  pep: number;
  match: number;
  listed: number;
  /** seeded listed persons with a review or match verdict */
  flagged: number;
  /** seeded listed persons whose own entry is among the candidates */
  found: number;
  ordinary: number;
  /** ordinary clients with a review or match verdict */
  falseFlagged: number;
  falseMatch: number;
  /** per variant: [found, total] */
  byVariant: Record<string, [number, number]>;
}

interface Run {
  database: string;
  skipped?: string;
  imports: ImportFigure[];
  buildSeconds: number;
  buildHeapMb: number;
  firstRequestSeconds: number;
  /** the service's resident set (VmRSS) before its first screening, after it, at the end; and its peak */
  rssIdle: number | undefined;
  rssAfterBuild: number | undefined;
  rssEnd: number | undefined;
  rssPeak: number | undefined;
  single: { p50: number; p95: number; p99: number; max: number; cpuMsPerPerson: number | undefined };
  batch: {
    personsPerSecond: number;
    p50: number;
    p95: number;
    max: number;
    requests: number;
    cpuMsPerPerson: number | undefined;
  };
  errors: number;
  tally: Tally;
  /** persons whose verdict differed between the single and the batched requests */
  disagreements: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);

/**
 * The resident set (VmRSS) now of this process's child running bench/server.ts, found in /proc (ChildServer gives
 * only the peak); undefined where /proc is missing.
 */
function serviceRss(): number | undefined {
  try {
    for (const pid of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid !== process.pid) continue;
        if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("bench/server.ts")) continue;
        const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        return match ? Number(match[1]) * 1024 : undefined;
      } catch {}
    }
  } catch {}
  return undefined;
}

class Client {
  errors = 0;
  constructor(
    private readonly url: string,
    private readonly key: string,
  ) {}

  /** POSTs the persons; the time from the request's start to the body read, and the results (none on an error). */
  async screen(persons: PersonInput[]): Promise<{ ms: number; results: PersonResult[] | undefined }> {
    const started = performance.now();
    const response = await fetch(`${this.url}/v1/screening/persons`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": `ApiKey ${this.key}` },
      body: JSON.stringify({ persons }),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) {
      this.errors++;
      if (this.errors <= 5)
        console.error(`  POST /v1/screening/persons answered ${response.status}: ${text.slice(0, 300)}`);
      return { ms, results: undefined };
    }
    return { ms, results: (JSON.parse(text) as { data: { results: PersonResult[] } }).data.results };
  }
}

function tallyOf(queries: Query[], verdicts: (PersonResult | undefined)[]): Tally {
  const t: Tally = {
    clear: 0,
    review: 0,
    pep: 0,
    match: 0,
    listed: 0,
    flagged: 0,
    found: 0,
    ordinary: 0,
    falseFlagged: 0,
    falseMatch: 0,
    byVariant: {},
  };
  queries.forEach((q, i) => {
    const r = verdicts[i];
    if (!r) return;
    t[r.verdict]++;
    if (q.listed) {
      t.listed++;
      const flagged = r.verdict !== "clear";
      const found = r.candidates.some((c) => c.list === q.listed?.kind && c.entryId === q.listed.entryId);
      if (flagged) t.flagged++;
      if (found) t.found++;
      t.byVariant[q.listed.variant] ??= [0, 0];
      const v = t.byVariant[q.listed.variant] as [number, number];
      if (found) v[0]++;
      v[1]++;
    } else {
      t.ordinary++;
      if (r.verdict !== "clear") t.falseFlagged++;
      if (r.verdict === "match") t.falseMatch++;
    }
  });
  return t;
}

async function runOn(database: "pglite" | "postgres", lists: Population[], queries: Query[]): Promise<Run> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-bench-screening-${database}-`));
  const dataDir = path.join(workDir, "data");
  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  const env: Record<string, string> = {
    HOST: "127.0.0.1",
    PORT: "0",
    VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
    VIGIA_LOG_LEVEL: "warn",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    LOG_LEVEL: "",
    // The limiters still run on every request; they just never say no (screening is a heavy route: its own limit).
    VIGIA_RATE_LIMIT_PER_MINUTE: "1000000000",
    VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE: "1000000000",
    VIGIA_DATA_DIR: dataDir,
    DATABASE_URL: database === "postgres" ? POSTGRES_URL : "",
    BENCH_SCHEMA: database === "postgres" ? schema : "",
  };
  let service: ChildServer<{ url: string; key: string }> | undefined;
  try {
    // (1) The lists, each in its own transaction, and the matcher's index built from them in this process.
    const store = await openDatabase<DB>(
      database === "postgres" ? { databaseUrl: POSTGRES_URL, dataDir: "memory://", schema } : { dataDir },
    );
    const imports: ImportFigure[] = [];
    let buildSeconds: number;
    let buildHeapMb: number;
    try {
      await migrate(store);
      // The project the service answers for: the UIF's LPB is each project's own (src/screening), imported for it.
      const project = await store.db
        .insertInto("projects")
        .values({ name: "Bench project" })
        .returning("id")
        .executeTakeFirstOrThrow();
      env.BENCH_PROJECT_ID = String(project.id);
      for (const list of lists) {
        const started = performance.now();
        const summary = await store.db.transaction().execute((trx) =>
          importPersonList(
            trx,
            PROJECT_LIST_KINDS.includes(list.info.kind) ? { ...list.info, projectId: project.id } : list.info,
            (async function* () {
              yield* list.entries;
            })(),
          ),
        );
        const seconds = (performance.now() - started) / 1000;
        imports.push({
          kind: list.info.kind,
          entries: summary.entries,
          persons: list.persons,
          entities: list.entities,
          seconds,
        });
        console.log(
          `  ${database}: ${list.info.kind} ${int(summary.entries)} entries imported in ${seconds.toFixed(1)} s`,
        );
      }
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      const loaded = await new Screener(store.db).current();
      buildSeconds = (performance.now() - started) / 1000;
      buildHeapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      console.log(
        `  ${database}: index of ${int(loaded.lists.reduce((n, l) => n + l.entries, 0))} entries built in ${buildSeconds.toFixed(1)} s (heap +${int(buildHeapMb)} MB)`,
      );
    } finally {
      await store.close();
    }

    // (2) and (3): the service, on the same store.
    service = await startChild<{ url: string; key: string }>("bench/server.ts", {
      env,
      label: `service/${database}`,
    });
    const client = new Client(service.info.url, service.info.key);
    const rssIdle = serviceRss();
    const warm = clientBase(lists, WARMUP, SEED + 7);
    const first = await client.screen([(warm[0] as Query).person]);
    if (!first.results) throw new Error("the first screening failed");
    const firstRequestSeconds = first.ms / 1000;
    const rssAfterBuild = serviceRss();
    console.log(
      `  ${database}: first screening (the service builds its index) ${firstRequestSeconds.toFixed(1)} s; service RSS ${mb(rssIdle)} → ${mb(rssAfterBuild)} MB`,
    );
    for (const q of warm.slice(1)) await client.screen([q.person]);
    client.errors = 0;

    const singleMs: number[] = [];
    const singleResults: (PersonResult | undefined)[] = [];
    let cpu = service.cpuSeconds();
    for (const [i, q] of queries.entries()) {
      const { ms, results } = await client.screen([q.person]);
      singleMs.push(ms);
      singleResults.push(results?.[0]);
      if ((i + 1) % 2_000 === 0) console.log(`    ${int(i + 1)} single requests`);
    }
    let cpuAfter = service.cpuSeconds();
    const singleCpu =
      cpu !== undefined && cpuAfter !== undefined ? ((cpuAfter - cpu) * 1000) / queries.length : undefined;

    const batchMs: number[] = [];
    const batchResults: (PersonResult | undefined)[] = [];
    cpu = service.cpuSeconds();
    const started = performance.now();
    for (let i = 0; i < queries.length; i += BATCH) {
      const chunk = queries.slice(i, i + BATCH);
      const { ms, results } = await client.screen(chunk.map((q) => q.person));
      batchMs.push(ms);
      for (let j = 0; j < chunk.length; j++) batchResults.push(results?.[j]);
    }
    const batchSeconds = (performance.now() - started) / 1000;
    cpuAfter = service.cpuSeconds();
    const batchCpu =
      cpu !== undefined && cpuAfter !== undefined ? ((cpuAfter - cpu) * 1000) / queries.length : undefined;

    const s = [...singleMs].sort((a, b) => a - b);
    const b = [...batchMs].sort((x, y) => x - y);
    let disagreements = 0;
    for (let i = 0; i < queries.length; i++)
      if (singleResults[i] && batchResults[i] && singleResults[i]?.verdict !== batchResults[i]?.verdict)
        disagreements++;
    return {
      database,
      imports,
      buildSeconds,
      buildHeapMb,
      firstRequestSeconds,
      rssIdle,
      rssAfterBuild,
      rssEnd: serviceRss(),
      rssPeak: service.peakRssBytes(),
      single: {
        p50: percentile(s, 50),
        p95: percentile(s, 95),
        p99: percentile(s, 99),
        max: s.at(-1) ?? Number.NaN,
        cpuMsPerPerson: singleCpu,
      },
      batch: {
        personsPerSecond: queries.length / batchSeconds,
        p50: percentile(b, 50),
        p95: percentile(b, 95),
        max: b.at(-1) ?? Number.NaN,
        requests: batchMs.length,
        cpuMsPerPerson: batchCpu,
      },
      errors: client.errors,
      tally: tallyOf(queries, singleResults),
      disagreements,
    };
  } finally {
    await service?.stop();
    if (database === "postgres") {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function passes(r: Run): boolean {
  return (
    !r.skipped &&
    r.errors === 0 &&
    r.single.p95 <= TARGET_P95_MS &&
    r.batch.personsPerSecond >= TARGET_PERSONS_PER_S
  );
}

const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const pct = (a: number, b: number) => (b === 0 ? "—" : `${((100 * a) / b).toFixed(1)} %`);
const DESCRIPTION: Record<ListKind, string> = {
  "ofac-sdn":
    "the real entries of eval/persons/lists/ofac-sdn-2021-04.jsonl (a cut of OFAC's SDN list, 2021-04), then recombinations of them (one entry's surnames with another's given names, 1-3 aliases for most, their dates, nationalities and programmes)",
  un: "the non-Latin American persons and entities of the same cut (60 %) and recombinations of them, in the UN's order (given names first, upper case), with UN reference numbers and list types",
  "sat-69b":
    'Mexican companies ("COMERCIALIZADORA … , S.A. DE C.V.", RFC of 12) and personas físicas ("PATERNO MATERNO NOMBRES", RFC of 13), mostly `Definitivo`',
  "mx-lpb":
    "Mexican persons (natural order, 80 % with a birthdate, 60 % with an RFC, some with a CURP and an alias) and a few companies",
  ftm: 'Latin American PEPs (55 % MX), given names and two surnames, 45 % with a birthdate (a third of them the year only), 30 % with the name also in the form "SURNAMES, Given"',
};

export const screeningBenchmark: Benchmark = {
  name: "screening",
  section: PERSONS === 10_000 && SCALE === 1 ? "screening" : `screening-${PERSONS}-${SCALE}`,
  title: `screening ${int(PERSONS)} persons against the lists of persons (${int(TOTAL_ENTRIES)} entries)`,
  async run() {
    const m = machine();
    let t = performance.now();
    const lists = populations();
    const queries = clientBase(lists, PERSONS, SEED + 3);
    console.log(
      `  populations: ${lists.map((l) => `${l.info.kind} ${int(l.entries.length)}`).join(", ")}; ${int(queries.length)} clients (${int(queries.filter((q) => q.listed).length)} listed) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const runs: Run[] = [];
    for (const database of wantedDatabases()) {
      if (database === "postgres") {
        const down = await postgresAnswers(POSTGRES_URL);
        if (down) {
          console.log(`  postgres: skipped (${down})`);
          runs.push({ database, skipped: down } as Run);
          continue;
        }
      }
      t = performance.now();
      const run = await runOn(database, lists, queries);
      runs.push(run);
      console.log(
        `  ${database}: done in ${((performance.now() - t) / 1000).toFixed(0)} s: ${JSON.stringify({ ...run, imports: undefined })}`,
      );
    }
    const done = runs.filter((r) => !r.skipped);
    const listed = queries.filter((q) => q.listed).length;

    const importRows = KINDS.map((kind) => {
      const list = lists.find((l) => l.info.kind === kind) as Population;
      const times = done.map((r) => r.imports.find((i) => i.kind === kind)?.seconds.toFixed(1) ?? "—");
      return `| ${kind} | ${int(list.entries.length)} | ${int(list.persons)} | ${int(list.entities)} | ${times.join(" | ")} | ${DESCRIPTION[kind]} |`;
    });
    const resultRows = done.map(
      (r) =>
        `| ${r.database} | ${r.buildSeconds.toFixed(1)} | ${r.firstRequestSeconds.toFixed(1)} | ${mb(r.rssIdle)} / ${mb(r.rssAfterBuild)} / ${mb(r.rssEnd)} (${mb(r.rssPeak)}) | ${ms(r.single.p50)} / **${ms(r.single.p95)}** / ${ms(r.single.p99)} | ${r.single.cpuMsPerPerson?.toFixed(2) ?? "—"} | **${int(r.batch.personsPerSecond)}** | ${ms(r.batch.p50)} / ${ms(r.batch.p95)} | ${r.batch.cpuMsPerPerson?.toFixed(2) ?? "—"} | ${r.errors} | ${passes(r) ? "met" : "**missed**"} |`,
    );
    const sanityRows = done.map((r) => {
      const t = r.tally;
      const variants = Object.entries(t.byVariant)
        .map(([v, [found, total]]) => `${v} ${found}/${total}`)
        .join(", ");
      return `| ${r.database} | ${int(t.clear)} / ${int(t.review)} / ${int(t.pep)} / ${int(t.match)} | ${pct(t.flagged, t.listed)} | ${pct(t.found, t.listed)} (${variants}) | ${int(t.falseFlagged)} (${pct(t.falseFlagged, t.ordinary)}), of which match ${int(t.falseMatch)} | ${r.disagreements} |`;
    });
    const markdown = [
      "## screening: persons screened against every list of persons",
      "",
      `Screening a client base against every list of persons at once (src/screening), through the real service (child process, bench/server.ts, log level warn) and POST /v1/screening/persons with the project's default thresholds (review 0.7, match 0.9). ${int(queries.length)} clients, seeded: ${int(queries.length - listed)} ordinary clients (Mexican names drawn from eval/persons/lists/common-names.json, 1/rank^0.65 for surnames and 1/rank^0.8 for given names, 40 % of surnames and 15 % of given names from a long tail of 30,000 and 3,000 made-up ones, 1/rank^0.5; full birthdate, nationality MX, 40 % with an RFC, a CURP for 60 % of those) and ${int(listed)} listed persons (${int(LISTED_SHARE * 100)} %, mostly PEPs, then OFAC, LPB, SAT, UN), each under one variant in turn: ${VARIANTS.join(", ")}; 70 % with the listed birthdate when the list has one, 30 % with the listed RFC or CURP when it has one.`,
      "",
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory}, Node ${m.node}, ${m.date}, load average at the start ${m.load}. Lists at scale ${SCALE} (BENCH_SCREENING_SCALE), ${int(TOTAL_ENTRIES)} entries in all, each imported with importPersonList in one transaction:`,
      "",
      `| List | Entries | Persons | Entities | ${done.map((r) => `Import on ${r.database} (s)`).join(" | ")} | Made of |`,
      `| --- | ---: | ---: | ---: | ${done.map(() => "---:").join(" | ")} | --- |`,
      ...importRows,
      "",
      `Index build: the first Screener.current() in the bench's process (reading every entry and building the matcher); "first screening": the service's first request, which builds its own. Service RSS: the child's resident set (VmRSS) before its first screening, after it, and at the end, and its peak (VmHWM, which the start-up's migrations may set). Single: ${int(queries.length)} requests of one person, one after another (after ${WARMUP} not counted); batches: the same persons in ${int(Math.ceil(queries.length / BATCH))} requests of ${BATCH}, one after another. Times from the request's start to its body read, on the same machine as the service. CPU: the service's CPU time per person.`,
      "",
      "| Database | Index build (s) | First screening (s) | Service RSS idle / after the build / end (peak) (MB) | Single: p50 / p95 / p99 per person (ms) | CPU per person, single (ms) | Batches of 100: persons/s | p50 / p95 per request (ms) | CPU per person, batched (ms) | Errors | Targets |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
      ...resultRows,
      ...runs.filter((r) => r.skipped).map((r) => `\n${r.database}: not measured (${r.skipped}).`),
      "",
      `Sanity (not targets), from the single requests: verdicts; the listed persons flagged (review or match) and those whose own entry is among the candidates, by variant; ordinary clients flagged (sharing a name, or most of one, with someone listed: mostly PEPs whose entry gives no birthdate to rule them out); persons whose verdict differed between single and batched requests.`,
      "",
      "| Database | clear / review / pep / match | Listed flagged | Listed found (own entry a candidate) | Ordinary clients flagged | Verdicts differing |",
      "| --- | ---: | ---: | --- | ---: | ---: |",
      ...sanityRows,
      "",
      `Targets: p95 ≤ ${TARGET_P95_MS} ms per person in single requests; ≥ ${int(TARGET_PERSONS_PER_S)} persons/s in requests of ${BATCH}; every response 200. ${
        done.length === 0
          ? "Nothing was measured."
          : done.every(passes) && done.length === runs.length
            ? "Every target met."
            : `Missed on ${runs
                .filter((r) => !passes(r))
                .map((r) => r.database)
                .join(", ")}.`
      }`,
    ].join("\n");
    return { markdown, passed: runs.length > 0 && runs.every(passes) };
  },
};
