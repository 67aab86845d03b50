// OpenSanctions' FollowTheMoney JSON lines (entities.ftm.json: one entity a line, {"id", "schema", "properties",
// "datasets", "first_seen", "last_seen", "last_change", "target", "caption"}). Persons become persons; Company,
// Organization, LegalEntity and PublicBody entities; every other schema (Address, Sanction, Ownership, Family,
// Directorship, Passport, ...) is a link or a detail, skipped. Countries are FtM's lowercase ISO codes (upper-cased;
// FtM's own such as "suhh" or "zz" dropped); programmes are the topics (sanction, role.pep, crime, ...) then the
// datasets. The version is the latest last_change (or last_seen) read, so it is complete once the file is.
import fs from "node:fs";
import readline from "node:readline";
import type { Identifier, ListEntry, ListInfo } from "../../../screening/index.ts";
import { InputError } from "../../labels/row-problems.ts";
import { isAlpha2 } from "./countries.ts";
import { oneDate } from "./dates.ts";
import { identifier, isCurp, isRfc, uniqueIdentifiers } from "./identifiers.ts";
import type { ReadItem, ReadList } from "./read.ts";
import { clean, head, oneFile, remarks, unique } from "./text.ts";

const KIND = "ftm";
const ENTITY_SCHEMAS = new Set(["Company", "Organization", "LegalEntity", "PublicBody"]);
/** A line past this is not one entity (OpenSanctions' largest are a few hundred kilobytes). */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

type Properties = Record<string, unknown>;

const values = (props: Properties, name: string): string[] => {
  const v = props[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter(
    (x): x is string => typeof x === "string",
  );
};

export const readFtm: ReadList = async (files, options) => {
  const file = oneFile(KIND, files);
  const sample = (await head(file)).toString("utf8").replace(/^\uFEFF/, "");
  const firstLine = sample.split("\n", 1)[0]?.trim() ?? "";
  let first: unknown;
  try {
    first = JSON.parse(firstLine);
  } catch {
    first = undefined;
  }
  if (!first || typeof first !== "object" || !("schema" in first) || !("id" in first))
    throw new InputError(
      `${file}: not FollowTheMoney JSON lines (the first line should be an entity {"id": ..., "schema": ..., "properties": {...}}, as in OpenSanctions' entities.ftm.json)`,
    );
  const info: ListInfo = {
    kind: KIND,
    version: undefined,
    listDate: undefined,
    source: options?.source ?? file,
  };
  async function* items(): AsyncGenerator<ReadItem> {
    const lines = readline.createInterface({
      input: fs.createReadStream(file, { encoding: "utf8" }),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let line = 0;
    for await (const raw of lines) {
      line += 1;
      const text = raw.trim();
      if (text === "") continue;
      if (text.length > MAX_LINE_CHARS) {
        yield { line, problem: `a line of ${text.length} characters is not one entity` };
        continue;
      }
      let entity: Record<string, unknown>;
      try {
        entity = JSON.parse(text) as Record<string, unknown>;
      } catch (error) {
        yield { line, problem: `not JSON (${(error as Error).message}); truncated file?` };
        continue;
      }
      const seen = latest(entity);
      if (seen && (!info.version || seen > info.version)) {
        info.version = seen;
        info.listDate = oneDate(seen.slice(0, 10));
      }
      yield { line, ...toEntry(entity) };
    }
  }
  return { info, items: items() };
};

function latest(entity: Record<string, unknown>): string | undefined {
  const stamps = [entity.last_change, entity.last_seen].filter((v): v is string => typeof v === "string");
  return stamps.sort().at(-1);
}

type Verdict = { entry: ListEntry } | { problem: string } | { skip: string };

function toEntry(entity: Record<string, unknown>): Verdict {
  const id = typeof entity.id === "string" ? entity.id.trim() : "";
  const schema = typeof entity.schema === "string" ? entity.schema : "";
  if (!id) return { problem: "an entity without id" };
  if (!schema) return { problem: `${id}: no schema` };
  const person = schema === "Person";
  if (!person && !ENTITY_SCHEMAS.has(schema)) return { skip: `FtM ${schema}` };
  const props = (
    typeof entity.properties === "object" && entity.properties !== null ? entity.properties : {}
  ) as Properties;
  const given = clean(`${values(props, "firstName")[0] ?? ""} ${values(props, "lastName")[0] ?? ""}`);
  const caption = typeof entity.caption === "string" ? entity.caption : "";
  const listed = unique([
    caption,
    ...values(props, "name"),
    ...values(props, "alias"),
    ...values(props, "previousName"),
    ...values(props, "weakAlias"),
  ]);
  // firstName and lastName come in several scripts each: joined only when there is no name at all.
  const names = listed.length > 0 ? listed : unique([given]);
  if (names.length === 0) return { problem: `${id}: no name` };
  const dates = unique(
    values(props, person ? "birthDate" : "incorporationDate").map(
      (d) => oneDate(d) ?? oneDate(d.slice(0, 10)),
    ),
  );
  const countries = unique(
    ["nationality", "citizenship", "country", "jurisdiction"]
      .flatMap((p) => values(props, p))
      .filter(isAlpha2)
      .map((c) => c.toUpperCase()),
  );
  const ids: (Identifier | undefined)[] = [
    ...values(props, "taxNumber").map((v) =>
      isRfc(v) ? identifier("rfc", v, "MX") : identifier("tax_id", v),
    ),
    ...values(props, "innCode").map((v) => identifier("tax_id", v, "RU")),
    ...values(props, "idNumber").map((v) =>
      isCurp(v) ? identifier("curp", v, "MX") : identifier("national_id", v),
    ),
    ...values(props, "passportNumber").map((v) => identifier("passport", v)),
    ...values(props, "registrationNumber").map((v) => identifier("other", v)),
    ...values(props, "ogrnCode").map((v) => identifier("other", v, "RU")),
  ];
  const datasets = Array.isArray(entity.datasets)
    ? entity.datasets.filter((d): d is string => typeof d === "string")
    : [];
  const result: ListEntry = {
    entryId: id,
    type: person ? "person" : "entity",
    names,
    dates,
    countries,
    identifiers: uniqueIdentifiers(ids),
    programs: unique([...values(props, "topics"), ...datasets]),
  };
  const note = remarks(values(props, "notes")[0]);
  if (note) result.remarks = note;
  return { entry: result };
}
