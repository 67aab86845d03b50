// OFAC's SDN list in either of its published forms, as ListEntry values:
//  - the legacy CSV: sdn.csv (no header; ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage,
//    GRT, Vess_flag, Vess_owner, Remarks; "-0- " for empty; CRLF lines and a final Ctrl-Z), with alt.csv (ent_num,
//    alt_num, alt_type, alt_name, alt_remarks) beside it for the aliases, given as the second file or found in the
//    same directory;
//  - SDN.XML (<sdnList>, one <sdnEntry> per entry), streamed by the sanctions importer's own scanner, which also
//    refuses a truncated file or one whose entries do not add up to its Record_Count.
// Individuals become persons, entities entities; vessels and aircraft are skipped. In the CSV the dates of birth,
// nationalities and identifiers are in the remarks ("DOB 12 Jan 1960; nationality Mexico; R.F.C. ... (Mexico)"),
// read here; the XML has them as elements.
import fs from "node:fs";
import path from "node:path";
import type { Identifier, ListEntry, ListInfo } from "../../../screening/index.ts";
import { InputError } from "../../labels/row-problems.ts";
import { sdnEntries } from "../../sanctions/sdn-scan.ts";
import { countryCode } from "./countries.ts";
import { csvRows } from "./csv.ts";
import { ofacDates, oneDate } from "./dates.ts";
import { identifier, identifierKind, uniqueIdentifiers } from "./identifiers.ts";
import type { ListReader, ReadItem, ReadList } from "./read.ts";
import { clean, head, remarks, unique } from "./text.ts";
import { child, elementParser, nodes, text, texts } from "./xml-values.ts";

const KIND = "ofac-sdn";
const EMPTY = "-0-";
/** The Ctrl-Z (0x1A) OFAC's DOS-era files end with: a record of its own, not a row. */
const EOF_MARK = "\u001a";

const field = (value: string | undefined) => {
  const v = clean(value);
  return v === EMPTY ? "" : v;
};

export const readOfacSdn: ReadList = async (files, options) => {
  const [first, second, ...rest] = files;
  if (!first || rest.length > 0)
    throw new InputError(
      `${KIND}: expected sdn.csv (with alt.csv), or SDN.XML; got ${files.join(", ") || "none"}`,
    );
  const sample = (await head(first)).toString("utf8");
  const info: ListInfo = {
    kind: KIND,
    version: undefined,
    listDate: undefined,
    source: options?.source ?? first,
  };
  if (/^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<sdnList[\s>]/.test(sample)) {
    if (second) throw new InputError(`${KIND}: SDN.XML is read alone (got also ${second})`);
    return readXml(first, sample, info);
  }
  const firstLine = sample.split(/\r?\n/, 1)[0] ?? "";
  if (
    /^\uFEFF?\s*\d+,"?[^,]*"?,"?[^,]*"?,/.test(firstLine) &&
    !/^\uFEFF?\d+,\d+,"?(aka|fka|nka)"?,/i.test(firstLine)
  )
    return readCsv(first, second, info, false);
  if (/^\uFEFF?"?ent_num"?,"?SDN_Name"?/i.test(firstLine)) return readCsv(first, second, info, true);
  if (/^\uFEFF?\d+,\d+,"?(aka|fka|nka)"?,/i.test(firstLine))
    throw new InputError(`${first}: this is OFAC's alt.csv (aliases); give sdn.csv first, alt.csv second`);
  throw new InputError(
    `${first}: not OFAC's SDN list: expected sdn.csv (rows "ent_num,SDN_Name,SDN_Type,Program,...,Remarks", no header) or SDN.XML (<sdnList>)`,
  );
};

// ---------------------------------------------------------------------------------------------------------------
// CSV

async function readCsv(
  sdn: string,
  altGiven: string | undefined,
  info: ListInfo,
  hasHeader: boolean,
): Promise<ListReader> {
  let alt = altGiven;
  if (!alt) {
    // OFAC publishes alt.csv beside sdn.csv: without it every alias is lost, so look for it.
    const beside = path.join(path.dirname(sdn), "alt.csv");
    if (path.basename(sdn).toLowerCase() === "sdn.csv" && fs.existsSync(beside)) alt = beside;
  }
  const aliases = alt ? await readAliases(alt) : new Map<string, string[]>();
  async function* items(): AsyncGenerator<ReadItem> {
    let first = true;
    for await (const { line, values } of csvRows(sdn, { encoding: "utf-8" })) {
      if (first && hasHeader) {
        first = false;
        continue;
      }
      first = false;
      if (values.length === 1 && (values[0] ?? "").trim() === EOF_MARK) continue;
      yield { line, ...csvEntry(values, aliases) };
    }
  }
  return { info, items: items() };
}

async function readAliases(file: string): Promise<Map<string, string[]>> {
  const aliases = new Map<string, string[]>();
  for await (const { line, values } of csvRows(file, { encoding: "utf-8" })) {
    if (values.length === 1 && (values[0] ?? "").trim() === EOF_MARK) continue;
    if (line === 1 && /^ent_num$/i.test(clean(values[0]))) continue;
    if (values.length !== 5 || !/^\d+$/.test(clean(values[0])))
      throw new InputError(
        `${file}:${line}: not OFAC's alt.csv (rows "ent_num,alt_num,alt_type,alt_name,alt_remarks", got ${values.length} columns)`,
      );
    const name = field(values[3]);
    if (!name) continue;
    const id = clean(values[0]);
    const list = aliases.get(id);
    if (list) list.push(name);
    else aliases.set(id, [name]);
  }
  return aliases;
}

type Verdict = { entry: ListEntry } | { problem: string } | { skip: string };

function csvEntry(values: string[], aliases: Map<string, string[]>): Verdict {
  if (values.length !== 12) return { problem: `expected 12 columns (sdn.csv), got ${values.length}` };
  const [entNum, name, type, program, , , , , , , , remarkText] = values.map(field);
  if (!entNum || !/^\d+$/.test(entNum)) return { problem: `ent_num "${entNum}" is not a number` };
  if (!name) return { problem: `entry ${entNum} has no name` };
  const kind = (type ?? "").toLowerCase();
  if (kind === "vessel" || kind === "aircraft") return { skip: `OFAC ${kind}` };
  if (kind !== "individual" && kind !== "") return { problem: `unknown SDN_Type "${type}"` };
  const facts = parseRemarks(remarkText ?? "");
  const person = kind === "individual";
  return {
    entry: {
      entryId: entNum,
      type: person ? "person" : "entity",
      names: unique([name, ...(aliases.get(entNum) ?? []), ...facts.names]),
      dates: unique(person ? facts.births : facts.established),
      countries: unique(facts.countries),
      identifiers: uniqueIdentifiers(facts.identifiers),
      // "SDGT] [NPWMD] [IRGC": several programmes are written between the field's own brackets.
      programs: unique((program ?? "").split(/\]\s*\[/)),
      remarks: remarks(remarkText),
    },
  };
}

/** The identifier labels the remarks use, longest first (so that "Passport No." is not read as "Passport"). */
const ID_LABELS = [
  "Public Security and Immigration No.",
  "Business Registration Number",
  "Business Registration Document #",
  "Matricula Mercantil No",
  "Electoral Registry No.",
  "Credencial electoral",
  "Driver's License No.",
  "Identification Number",
  "Registration Number",
  "National ID No.",
  "Registration ID",
  "Passport No.",
  "V.A.T. Number",
  "Tax ID No.",
  "Cedula No.",
  "C.U.R.P.",
  "Passport",
  "R.F.C.",
  "R.U.C. #",
  "C.U.I.T.",
  "D.N.I.",
  "NIT #",
  "CURP",
  "RFC",
  "SSN",
].sort((a, b) => b.length - a.length);

interface RemarkFacts {
  births: string[];
  established: string[];
  countries: string[];
  identifiers: (Identifier | undefined)[];
  names: string[];
}

/** The facts in an sdn.csv Remarks field, segment by segment ("; "-separated); the rest stays prose. */
export function parseRemarks(text: string): RemarkFacts {
  const facts: RemarkFacts = { births: [], established: [], countries: [], identifiers: [], names: [] };
  for (const raw of text.split(";")) {
    const segment = raw.trim().replace(/\.$/, "");
    const s = segment.replace(/^alt\.\s+/i, "");
    let m = /^DOB\s+(.+)$/.exec(s);
    if (m) {
      facts.births.push(...ofacDates(m[1] as string));
      continue;
    }
    m = /^(?:nationality|citizen|Nationality of Registration)\s+(.+)$/i.exec(s);
    if (m) {
      const code = countryCode(m[1]);
      if (code) facts.countries.push(code);
      continue;
    }
    m = /^Organization Established Date\s+(.+)$/i.exec(s);
    if (m) {
      const date = oneDate(m[1] as string);
      if (date) facts.established.push(date);
      continue;
    }
    m = /^[afn]\.k\.a\.,?\s+(.+)$/i.exec(s);
    if (m) {
      facts.names.push((m[1] as string).replace(/^['"‘’]+|['"‘’]+$/g, ""));
      continue;
    }
    const label = ID_LABELS.find((l) => s.startsWith(`${l} `));
    if (label) {
      const rest = s.slice(label.length).trim();
      // "ZANM-821122-H87 (Mexico)", "6270234 (Colombia) issued 2001 expires 2011", "J287011".
      const idm =
        /^(.+?)(?:\s+\(([^)]*)\))?(?:\s+(?:issued|expires|Expires|Issue Date|Expire Date).*)?$/.exec(rest);
      const kind = identifierKind(label) ?? "other";
      if (idm) facts.identifiers.push(identifier(kind, idm[1] as string, countryCode(idm[2])));
    }
  }
  return facts;
}

// ---------------------------------------------------------------------------------------------------------------
// XML

const parser = elementParser([
  "program",
  "aka",
  "id",
  "nationality",
  "citizenship",
  "dateOfBirthItem",
  "placeOfBirthItem",
  "address",
]);

function readXml(file: string, sample: string, info: ListInfo): ListReader {
  const publish = /<Publish_Date>\s*([^<]*?)\s*<\/Publish_Date>/.exec(sample)?.[1];
  const count = /<Record_Count>\s*(\d+)\s*<\/Record_Count>/.exec(sample)?.[1];
  const date = publish ? usDate(publish) : undefined;
  info.listDate = date;
  if (publish || count)
    info.version = [date ?? publish, count ? `${count} records` : undefined].filter(Boolean).join(" ");
  async function* items(): AsyncGenerator<ReadItem> {
    for await (const { line, xml } of sdnEntries(file)) yield { line, ...xmlEntry(xml) };
  }
  return { info, items: items() };
}

/** OFAC's MM/DD/YYYY as YYYY-MM-DD. */
function usDate(value: string): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return m
    ? oneDate(`${m[3]}-${(m[1] as string).padStart(2, "0")}-${(m[2] as string).padStart(2, "0")}`)
    : undefined;
}

const fullName = (node: Record<string, unknown>) => clean(`${text(node.firstName)} ${text(node.lastName)}`);

function xmlEntry(xml: string): Verdict {
  let entry: Record<string, unknown> | undefined;
  try {
    entry = (parser.parse(xml) as { sdnEntry?: Record<string, unknown> }).sdnEntry;
  } catch (error) {
    return { problem: `malformed <sdnEntry>: ${(error as Error).message}` };
  }
  if (!entry) return { problem: "empty <sdnEntry>" };
  const uid = text(entry.uid);
  if (!uid) return { problem: "an <sdnEntry> without <uid>" };
  const type = text(entry.sdnType).toLowerCase();
  if (type === "vessel" || type === "aircraft") return { skip: `OFAC ${type}` };
  if (type !== "individual" && type !== "entity")
    return { problem: `entry ${uid}: unknown sdnType "${type}"` };
  const name = fullName(entry);
  if (!name) return { problem: `entry ${uid} has no name` };
  const person = type === "individual";
  const aliases = nodes(child(entry, "akaList").aka).map(fullName);
  const births = nodes(child(entry, "dateOfBirthList").dateOfBirthItem).flatMap((d) =>
    ofacDates(text(d.dateOfBirth)),
  );
  const countries = [
    ...nodes(child(entry, "nationalityList").nationality),
    ...nodes(child(entry, "citizenshipList").citizenship),
  ].map((n) => countryCode(text(n.country)));
  const established: string[] = [];
  const identifiers: (Identifier | undefined)[] = [];
  for (const id of nodes(child(entry, "idList").id)) {
    const label = text(id.idType);
    const value = text(id.idNumber);
    if (/^Organization Established Date$/i.test(label)) {
      const date = oneDate(value);
      if (date) established.push(date);
      continue;
    }
    if (/^Nationality of Registration$/i.test(label)) {
      countries.push(countryCode(value));
      continue;
    }
    const kind = identifierKind(label);
    if (kind) identifiers.push(identifier(kind, value, countryCode(text(id.idCountry))));
  }
  return {
    entry: {
      entryId: uid,
      type: person ? "person" : "entity",
      names: unique([name, ...aliases]),
      dates: unique(person ? births : established),
      countries: unique(countries),
      identifiers: uniqueIdentifiers(identifiers),
      programs: unique(texts(child(entry, "programList").program)),
      remarks: remarks(text(entry.remarks)),
    },
  };
}
