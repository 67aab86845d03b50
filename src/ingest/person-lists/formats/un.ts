// The UN Security Council's consolidated list (https://scsanctions.un.org/resources/xml/en/consolidated.xml):
// <CONSOLIDATED_LIST dateGenerated="..."> with <INDIVIDUALS><INDIVIDUAL>... and <ENTITIES><ENTITY>..., streamed
// one record at a time. The entry's id is its REFERENCE_NUMBER (QDi.001, KPe.019); its names the four name parts
// joined, the name in original script and the aliases; dates of birth exact, by year or a range of years.
import type { Identifier, ListEntry, ListInfo } from "../../../screening/index.ts";
import { InputError } from "../../labels/row-problems.ts";
import { countryCode } from "./countries.ts";
import { oneDate, yearRange } from "./dates.ts";
import { identifier, identifierKind, uniqueIdentifiers } from "./identifiers.ts";
import type { ReadItem, ReadList } from "./read.ts";
import { clean, head, oneFile, remarks, unique } from "./text.ts";
import { xmlElements } from "./xml-elements.ts";
import { elementParser, nodes, text, texts, type XmlNode } from "./xml-values.ts";

const KIND = "un";

const parser = elementParser([
  "INDIVIDUAL_ALIAS",
  "ENTITY_ALIAS",
  "INDIVIDUAL_DATE_OF_BIRTH",
  "INDIVIDUAL_DOCUMENT",
  "VALUE",
]);

export const readUn: ReadList = async (files, options) => {
  const file = oneFile(KIND, files);
  const sample = (await head(file)).toString("utf8");
  if (!/<CONSOLIDATED_LIST[\s>]/.test(sample))
    throw new InputError(
      `${file}: not the UN Security Council consolidated list (no <CONSOLIDATED_LIST> root in its first 64 KB; expected the XML of https://scsanctions.un.org/resources/xml/en/consolidated.xml)`,
    );
  const info: ListInfo = {
    kind: KIND,
    version: undefined,
    listDate: undefined,
    source: options?.source ?? file,
  };
  const readRoot = (tag: string) => {
    const generated = /\bdateGenerated="([^"]*)"/.exec(tag)?.[1];
    if (generated) {
      info.version = generated;
      info.listDate = oneDate(generated.slice(0, 10));
    }
  };
  readRoot(/<CONSOLIDATED_LIST[^>]*>/.exec(sample)?.[0] ?? "");
  async function* items(): AsyncGenerator<ReadItem> {
    for await (const { line, name, xml } of xmlElements(file, {
      root: "CONSOLIDATED_LIST",
      names: ["INDIVIDUAL", "ENTITY"],
      onPrelude: (prelude) => {
        const tag = /<CONSOLIDATED_LIST(?:\s[^>]*)?>/.exec(prelude)?.[0];
        if (!tag)
          throw new InputError(`${file}: not the expected list (no <CONSOLIDATED_LIST> root element)`);
        readRoot(tag);
      },
    }))
      yield { line, ...record(name, xml) };
  }
  return { info, items: items() };
};

type Verdict = { entry: ListEntry } | { problem: string };

function record(name: string, xml: string): Verdict {
  let node: XmlNode | undefined;
  try {
    node = (parser.parse(xml) as Record<string, XmlNode | undefined>)[name];
  } catch (error) {
    return { problem: `malformed <${name}>: ${(error as Error).message}` };
  }
  if (!node) return { problem: `empty <${name}>` };
  const reference = clean(text(node.REFERENCE_NUMBER));
  if (!reference)
    return { problem: `a <${name}> without REFERENCE_NUMBER (DATAID ${text(node.DATAID) || "?"})` };
  const person = name === "INDIVIDUAL";
  const primary = clean(
    [node.FIRST_NAME, node.SECOND_NAME, node.THIRD_NAME, node.FOURTH_NAME].map(text).join(" "),
  );
  if (!primary) return { problem: `${reference} has no name` };
  const aliases = nodes(person ? node.INDIVIDUAL_ALIAS : node.ENTITY_ALIAS).map((a) => text(a.ALIAS_NAME));
  const dates = person ? nodes(node.INDIVIDUAL_DATE_OF_BIRTH).flatMap(birthDates) : [];
  const countries = person ? texts(nodesValue(node.NATIONALITY)).map(countryCode) : [];
  const identifiers: (Identifier | undefined)[] = person
    ? nodes(node.INDIVIDUAL_DOCUMENT).map((doc) => {
        const type = text(doc.TYPE_OF_DOCUMENT);
        const number = text(doc.NUMBER);
        if (!number) return undefined;
        const kind = identifierKind(type) ?? "other";
        const country = countryCode(text(doc.ISSUING_COUNTRY) || text(doc.COUNTRY_OF_ISSUE));
        return identifier(kind, number, country);
      })
    : [];
  return {
    entry: {
      entryId: reference,
      type: person ? "person" : "entity",
      names: unique([primary, text(node.NAME_ORIGINAL_SCRIPT), ...aliases]),
      dates: unique(dates),
      countries: unique(countries),
      identifiers: uniqueIdentifiers(identifiers),
      programs: unique([text(node.UN_LIST_TYPE)]),
      remarks: remarks(text(node.COMMENTS1)),
    },
  };
}

/** <NATIONALITY><VALUE>a</VALUE><VALUE>b</VALUE></NATIONALITY>: the VALUEs. */
function nodesValue(value: unknown): unknown {
  const node = nodes(value)[0];
  return node?.VALUE;
}

/** EXACT with DATE or YEAR, APPROXIMATELY with YEAR, BETWEEN with FROM_YEAR and TO_YEAR. */
function birthDates(node: XmlNode): string[] {
  const date = text(node.DATE);
  if (date) {
    const d = oneDate(date.slice(0, 10));
    if (d) return [d];
  }
  const from = text(node.FROM_YEAR);
  const to = text(node.TO_YEAR);
  if (from && to) return yearRange(from, to);
  const year = text(node.YEAR) || from || to;
  const y = year ? oneDate(year) : undefined;
  return y ? [y] : [];
}
