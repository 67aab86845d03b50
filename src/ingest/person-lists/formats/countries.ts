// Country names as the lists write them ("Mexico", "México", "Korea, North", "Iran (Islamic Republic of)",
// "Bosnia-Herzegovina") to ISO 3166-1 alpha-2, with i18n-iso-countries' English and Spanish names and the few
// spellings OFAC and the UN use that it does not know. A name that is not a country ("Palestinian" is, "Region:
// Gaza" is not) gives undefined: the reader leaves it out rather than guess.
import { createRequire } from "node:module";
import countries from "i18n-iso-countries";

const require = createRequire(import.meta.url);
countries.registerLocale(require("i18n-iso-countries/langs/en.json"));
countries.registerLocale(require("i18n-iso-countries/langs/es.json"));

/** Spellings of the official lists that the library's names miss (lowercase, without accents). */
const ALIASES: Record<string, string> = {
  "korea, north": "KP",
  "north korea": "KP",
  "democratic people's republic of korea": "KP",
  "korea, south": "KR",
  "south korea": "KR",
  burma: "MM",
  syria: "SY",
  laos: "LA",
  "lao people's democratic republic": "LA",
  macedonia: "MK",
  "the former yugoslav republic of macedonia": "MK",
  "bosnia-herzegovina": "BA",
  "cote d ivoire": "CI",
  "cote d'ivoire": "CI",
  "viet nam": "VN",
  "congo, democratic republic of the": "CD",
  "congo, republic of the": "CG",
  palestinian: "PS",
  "west bank": "PS",
  "gaza strip": "PS",
  "state of palestine": "PS",
  "gambia, the": "GM",
  "bahamas, the": "BS",
  "united states of america": "US",
  "russian federation": "RU",
  "united kingdom of great britain and northern ireland": "GB",
  "kyrgyz republic": "KG",
  "slovak republic": "SK",
  turkiye: "TR",
  "estados unidos de america": "US",
  "estados unidos mexicanos": "MX",
};

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

function lookup(name: string): string | undefined {
  const folded = fold(name);
  if (folded === "") return undefined;
  const alias = ALIASES[folded];
  if (alias) return alias;
  return (
    countries.getAlpha2Code(name, "en") ??
    countries.getAlpha2Code(name, "es") ??
    countries.getSimpleAlpha2Code(folded, "en") ??
    countries.getSimpleAlpha2Code(folded, "es")
  );
}

/** ISO alpha-2 of a country written as a name (English or Spanish) or as an alpha-2/alpha-3 code. */
export function countryCode(text: string | undefined): string | undefined {
  const name = (text ?? "").trim().replace(/\.$/, "");
  if (name === "") return undefined;
  if (/^[A-Za-z]{2}$/.test(name))
    return countries.isValid(name.toUpperCase()) ? name.toUpperCase() : undefined;
  if (/^[A-Z]{3}$/.test(name)) {
    const code = countries.alpha3ToAlpha2(name);
    if (code) return code;
  }
  const direct = lookup(name);
  if (direct) return direct;
  // "Iran (Islamic Republic of)", "Venezuela (Bolivarian Republic of)": the name before the bracket.
  const bare = name.replace(/\s*\([^)]*\)\s*$/, "");
  if (bare !== name) return lookup(bare);
  return undefined;
}

/** Whether `code` (any case) is an assigned ISO 3166-1 alpha-2 code (FtM's "zz" or "suhh" are not). */
export function isAlpha2(code: string): boolean {
  return /^[A-Za-z]{2}$/.test(code) && countries.isValid(code.toUpperCase());
}
