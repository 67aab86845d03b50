// Writes eval/persons/lists/ofac-sdn-2021-04.jsonl, the person-screening eval's list, from OFAC's sdn.csv and
// alt.csv (the legacy CSV files of the SDN list, as published): each kept row becomes a ListEntry (names with the
// alt.csv aliases, dates of birth, nationalities and citizenships, RFC, CURP, passports and national ids parsed out
// of the remarks). Kept so that the cut can be checked and redone; the eval reads only the JSONL it writes.
//
//   node bin/run-ts.js eval/persons/lists/cut.ts SDN_CSV ALT_CSV > eval/persons/lists/ofac-sdn-2021-04.jsonl
//
// Which rows: every individual of the counter-narcotics programmes (SDNT, SDNTK) or with a Latin American
// nationality, citizenship or identifier (the people a Latin American compliance officer screens against most),
// every third other individual (for the transliterated Arabic, Persian and Russian names), and every second entity
// with a Latin American link (for "S.A. DE C.V." and its kin). Vessels and aircraft are left out: the matcher screens
// persons and entities.
import fs from "node:fs";
import { parse } from "csv-parse/sync";
import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json" with { type: "json" };
import type { Identifier, ListEntry } from "../../../src/screening/entry.ts";

countries.registerLocale(en);

/** OFAC's country names that i18n-iso-countries does not know by that spelling. */
const OFAC_COUNTRIES: Record<string, string> = {
  "Korea, North": "KP",
  "Korea, South": "KR",
  Syria: "SY",
  "Congo, Democratic Republic of the": "CD",
  "Congo, Republic of the": "CG",
  Burma: "MM",
  "West Bank": "PS",
  Gaza: "PS",
  Palestinian: "PS",
  Macedonia: "MK",
  "North Macedonia": "MK",
  Moldova: "MD",
  Laos: "LA",
  "Cote d Ivoire": "CI",
  "Bahamas, The": "BS",
  "Gambia, The": "GM",
  Russia: "RU",
  Iran: "IR",
  Venezuela: "VE",
  Bolivia: "BO",
  Tanzania: "TZ",
  Vietnam: "VN",
};

const LATAM = new Set(
  "MX CO VE GT HN SV NI CR PA CU DO PR EC PE BO CL AR UY PY BR BZ HT JM TT".split(" ").filter(Boolean),
);

function alpha2(name: string): string | undefined {
  const n = name.trim().replace(/\.$/, "");
  return OFAC_COUNTRIES[n] ?? countries.getAlpha2Code(n, "en") ?? undefined;
}

const MONTHS: Record<string, string> = {
  Jan: "01",
  Feb: "02",
  Mar: "03",
  Apr: "04",
  May: "05",
  Jun: "06",
  Jul: "07",
  Aug: "08",
  Sep: "09",
  Oct: "10",
  Nov: "11",
  Dec: "12",
};

/** "31 Jan 1939", "Jan 1939", "1939", "circa 1939", "1946 to 1948", "01 Jan 1960 to 31 Dec 1962" → dates. */
function datesOf(text: string): string[] {
  const t = text
    .replace(/^circa\s+/i, "")
    .replace(/\.$/, "")
    .trim();
  const range = /^(?:\d{2} \w{3} )?(\d{4}) to (?:\d{2} \w{3} )?(\d{4})$/.exec(t);
  if (range) {
    const out: string[] = [];
    for (let y = Number(range[1]); y <= Number(range[2]) && out.length < 12; y++) out.push(String(y));
    return out;
  }
  const full = /^(\d{2}) (\w{3}) (\d{4})$/.exec(t);
  if (full && MONTHS[full[2] as string]) return [`${full[3]}-${MONTHS[full[2] as string]}-${full[1]}`];
  const month = /^(\w{3}) (\d{4})$/.exec(t);
  if (month && MONTHS[month[1] as string]) return [`${month[2]}-${MONTHS[month[1] as string]}`];
  if (/^\d{4}$/.test(t)) return [t];
  return [];
}

const ID_KINDS: [RegExp, Identifier["kind"]][] = [
  [/^(?:alt\. )?R\.F\.C\. (\S+)(?: \(([^)]+)\))?/, "rfc"],
  [/^(?:alt\. )?RFC (\S+)(?: \(([^)]+)\))?/, "rfc"],
  [/^(?:alt\. )?C\.U\.R\.P\. (\S+)(?: \(([^)]+)\))?/, "curp"],
  [/^(?:alt\. )?Passport (\S+(?: \S+)?) \(([^)]+)\)/, "passport"],
  [/^(?:alt\. )?Passport (\S+)/, "passport"],
  [
    /^(?:alt\. )?(?:Cedula No\.|National ID No\.|D\.N\.I\.|Identification Number|C\.U\.I\.T\.) (\S+)(?: \(([^)]+)\))?/,
    "national_id",
  ],
  [/^(?:alt\. )?NIT # (\S+)(?: \(([^)]+)\))?/, "tax_id"],
];

function entryOf(row: string[], aliases: string[]): ListEntry | undefined {
  const [uid, name, sdnType, programs, , , , , , , , remarks] = row.map((c) =>
    c.trim() === "-0-" ? "" : c.trim(),
  );
  if (!uid || !name || sdnType === "vessel" || sdnType === "aircraft") return undefined;
  const type = sdnType === "individual" ? "person" : "entity";
  const dates: string[] = [];
  const found = new Set<string>();
  const identifiers: Identifier[] = [];
  const names = [name, ...aliases];
  for (const raw of (remarks ?? "").split(";")) {
    const part = raw.trim();
    const dob = /^(?:alt\. )?(?:DOB|Organization Established Date) (.+)$/.exec(part);
    if (dob) dates.push(...datesOf(dob[1] as string));
    const nat = /^(?:alt\. )?(?:nationality|citizen|Nationality of Registration) (.+?)\.?$/.exec(part);
    if (nat) {
      const c = alpha2(nat[1] as string);
      if (c) found.add(c);
    }
    for (const [re, kind] of ID_KINDS) {
      const m = re.exec(part);
      if (!m) continue;
      const value = (m[1] as string).replace(/[.,]$/, "");
      const country = m[2] ? alpha2(m[2]) : undefined;
      identifiers.push({ kind, value, ...(country ? { country } : {}) });
      break;
    }
    // The remarks' weak aliases ("a.k.a. 'EL CHAPO'") are names a client may be recorded under too.
    for (const m of part.matchAll(/a\.k\.a\. '([^']+)'/g)) names.push(m[1] as string);
  }
  const entry: ListEntry = {
    entryId: uid,
    type,
    names: [...new Set(names)],
    dates: [...new Set(dates)],
    countries: [...found],
    identifiers,
    programs: (programs ?? "")
      .split("] [")
      .map((p) => p.replace(/[[\]]/g, "").trim())
      .filter(Boolean),
  };
  return entry;
}

const [sdnFile, altFile] = process.argv.slice(2);
if (!sdnFile || !altFile) {
  process.stderr.write("usage: node bin/run-ts.js eval/persons/lists/cut.ts SDN_CSV ALT_CSV\n");
  process.exit(2);
}
const csv = (file: string) =>
  parse(fs.readFileSync(file, "latin1"), { relax_column_count: true, relax_quotes: true }) as string[][];
const aliases = new Map<string, string[]>();
for (const row of csv(altFile)) {
  const [uid, , , altName] = row.map((c) => c.trim());
  if (uid && altName && altName !== "-0-") aliases.set(uid, [...(aliases.get(uid) ?? []), altName]);
}
let otherIndividual = 0;
let latamEntity = 0;
const kept: ListEntry[] = [];
for (const row of csv(sdnFile)) {
  const entry = entryOf(row, aliases.get(row[0]?.trim() ?? "") ?? []);
  if (!entry) continue;
  const latam =
    entry.countries.some((c) => LATAM.has(c)) ||
    entry.identifiers.some(
      (i) => (i.country && LATAM.has(i.country)) || i.kind === "rfc" || i.kind === "curp",
    ) ||
    entry.programs.some((p) => p === "SDNT" || p === "SDNTK");
  if (entry.type === "person" ? latam || otherIndividual++ % 3 === 0 : latam && latamEntity++ % 2 === 0)
    kept.push(entry);
}
for (const entry of kept) process.stdout.write(`${JSON.stringify(entry)}\n`);
process.stderr.write(
  `${kept.length} entries: ${kept.filter((e) => e.type === "person").length} persons, ${kept.filter((e) => e.type === "entity").length} entities\n`,
);
