// The UIF's Lista de Personas Bloqueadas in the CSV Vigía documents for it (docs/person-lists.md): the list is not
// public (each obligated subject receives it from the UIF through the SAT's portal), so the compliance officer
// copies it into this form. UTF-8, header
//   id,tipo,nombre,apellido_paterno,apellido_materno,alias,fecha_nacimiento,rfc,curp,pasaporte,nacionalidad,fecha_alta,fundamento
// tipo fisica|moral; alias and nacionalidad "|"-separated; fecha_nacimiento YYYY-MM-DD, YYYY-MM or YYYY (the
// incorporation date for a moral); nacionalidad ISO alpha-2 or a country name in Spanish or English. Optional
// leading comment lines "# version: <text>" and "# fecha: YYYY-MM-DD" give the list's version and date.
import type { Identifier, ListEntry, ListInfo } from "../../../screening/index.ts";
import { InputError } from "../../labels/row-problems.ts";
import { countryCode } from "./countries.ts";
import { csvRows } from "./csv.ts";
import { oneDate } from "./dates.ts";
import { CURP, compact, identifier, RFC } from "./identifiers.ts";
import type { ReadItem, ReadList } from "./read.ts";
import { clean, head, oneFile, remarks, unique } from "./text.ts";

const KIND = "mx-lpb";

export const LPB_COLUMNS = [
  "id",
  "tipo",
  "nombre",
  "apellido_paterno",
  "apellido_materno",
  "alias",
  "fecha_nacimiento",
  "rfc",
  "curp",
  "pasaporte",
  "nacionalidad",
  "fecha_alta",
  "fundamento",
] as const;
type Column = (typeof LPB_COLUMNS)[number];

/** What the LPB entries are listed under: the list itself (its legal basis, per row, goes in the remarks). */
export const LPB_PROGRAM = "LPB";

export const readMxLpb: ReadList = async (files, options) => {
  const file = oneFile(KIND, files);
  const sample = await head(file);
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true });
  } catch {
    throw new InputError(`${file}: not UTF-8; save the Lista de Personas Bloqueadas CSV as UTF-8`);
  }
  const info: ListInfo = {
    kind: KIND,
    version: undefined,
    listDate: undefined,
    source: options?.source ?? file,
  };
  for (const raw of sample
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)) {
    const m = /^#\s*([a-záéíóú_ ]+?)\s*:\s*(.*?)\s*$/i.exec(raw);
    if (!m) break;
    const key = (m[1] as string).toLowerCase();
    const value = m[2] as string;
    if (key === "version" || key === "versión") info.version = value || undefined;
    else if (key === "fecha") {
      const date = oneDate(value);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date ?? ""))
        throw new InputError(`${file}: "# fecha: ${value}" is not a date YYYY-MM-DD`);
      info.listDate = date;
    }
  }
  const rows = csvRows(file, { encoding: "utf-8", comment: "#" });
  const first = await rows.next();
  if (first.done) throw new InputError(`${file}: empty file (the header ${LPB_COLUMNS.join(",")} is needed)`);
  const header = first.value.values.map((v) => clean(v).toLowerCase());
  const missing = LPB_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    await rows.return(undefined);
    throw new InputError(
      `${file}:${first.value.line}: not Vigía's Lista de Personas Bloqueadas CSV: missing column(s) ${missing.join(", ")} (header: ${LPB_COLUMNS.join(",")})`,
    );
  }
  const at = Object.fromEntries(LPB_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<Column, number>;
  async function* items(): AsyncGenerator<ReadItem> {
    for await (const { line, values } of rows) {
      if (values.every((v) => clean(v) === "")) continue;
      if (values.length !== header.length) {
        yield { line, problem: `expected ${header.length} columns, got ${values.length}` };
        continue;
      }
      const get = (c: Column) => clean(values[at[c]]);
      const result = entry(get);
      yield typeof result === "string" ? { line, problem: result } : { line, entry: result };
    }
  }
  return { info, items: items() };
};

/** The row's entry, or what is wrong with it. */
function entry(get: (c: Column) => string): ListEntry | string {
  const id = get("id");
  if (!id) return "no id";
  const tipo = get("tipo")
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
  if (tipo !== "fisica" && tipo !== "moral")
    return `${id}: tipo "${get("tipo")}" is neither fisica nor moral`;
  const person = tipo === "fisica";
  const nombre = get("nombre");
  if (!nombre) return `${id}: no nombre`;
  const name = clean([nombre, get("apellido_paterno"), get("apellido_materno")].join(" "));
  const dates: string[] = [];
  const born = get("fecha_nacimiento");
  if (born) {
    const date = oneDate(born);
    if (!date || !/^\d{4}(-\d{2}(-\d{2})?)?$/.test(born))
      return `${id}: fecha_nacimiento "${born}" is not YYYY-MM-DD, YYYY-MM or YYYY`;
    dates.push(date);
  }
  const identifiers: Identifier[] = [];
  const rfc = compact(get("rfc"));
  if (rfc) {
    if (!RFC.test(rfc)) return `${id}: rfc "${get("rfc")}" is not an RFC`;
    if (rfc.length !== (person ? 13 : 12))
      return `${id}: rfc ${rfc} has ${rfc.length} characters; a persona ${person ? "física has 13" : "moral has 12"}`;
    identifiers.push({ kind: "rfc", value: rfc, country: "MX" });
  }
  const curp = compact(get("curp"));
  if (curp) {
    if (!person) return `${id}: a persona moral has no CURP`;
    if (!CURP.test(curp)) return `${id}: curp "${get("curp")}" is not a CURP (18 characters)`;
    identifiers.push({ kind: "curp", value: curp, country: "MX" });
  }
  for (const passport of get("pasaporte").split("|")) {
    const value = identifier("passport", passport);
    if (value) identifiers.push(value);
  }
  const countries: string[] = [];
  for (const raw of get("nacionalidad").split("|")) {
    const value = raw.trim();
    if (!value) continue;
    const code = countryCode(value);
    if (!code) return `${id}: nacionalidad "${value}" is not a country (ISO alpha-2 such as MX, or its name)`;
    countries.push(code);
  }
  const alta = get("fecha_alta");
  if (alta && (!oneDate(alta) || !/^\d{4}-\d{2}-\d{2}$/.test(alta)))
    return `${id}: fecha_alta "${alta}" is not YYYY-MM-DD`;
  const fundamento = get("fundamento");
  const note = [alta ? `alta ${alta}` : "", fundamento ? `fundamento: ${fundamento}` : ""]
    .filter(Boolean)
    .join("; ");
  const result: ListEntry = {
    entryId: id,
    type: person ? "person" : "entity",
    names: unique([name, ...get("alias").split("|")]),
    dates,
    countries: unique(countries),
    identifiers,
    programs: [LPB_PROGRAM],
  };
  const text = remarks(note);
  if (text) result.remarks = text;
  return result;
}
