// Names as the matcher compares them: lower case, accents stripped, punctuation gone, "LAST, First" put back in the
// order people write it, particles and honorifics dropped, entities' legal forms dropped, and the frequent
// transliteration variants of Arabic names folded into one spelling. Two writings of one name should give the same
// tokens here, so that the fuzzy measure (match/similarity.ts) is left only the typos. Before any of it, the name is
// brought to what a reader sees (platform/visible-text.ts): invisible characters, fullwidth forms and look-alike letters of
// other scripts cannot make a listed name a stranger.

import { visibleForm } from "../../platform/visible-text.ts";

/**
 * Particles of Spanish, Portuguese, Italian, Dutch, German and Arabic names. They carry no identity (a list writes
 * "DE LA TORRE", a client record "Torre" or "de la Torre") and would otherwise be the most frequent tokens.
 * "al"/"el" are dropped too: OFAC writes "AL-ZAWAHIRI", "AL ZAWAHIRI" and "ZAWAHIRI" for one man, and the Spanish
 * article ("EL CHAPO") is no more telling. "bin"/"ibn"/"bint" (son/daughter of) likewise. "ben" and "abu" are kept:
 * they are given names or part of the kunya people are known by.
 */
const PARTICLES = new Set([
  "de",
  "del",
  "la",
  "las",
  "los",
  "y",
  "e",
  "da",
  "das",
  "do",
  "dos",
  "di",
  "du",
  "van",
  "von",
  "der",
  "den",
  "le",
  "al",
  "el",
  "bin",
  "ibn",
  "bint",
]);

/** Honorifics and titles: not part of anyone's name on a client record. */
const TITLES = new Set([
  "dr",
  "mr",
  "mrs",
  "ms",
  "sr",
  "sra",
  "srta",
  "lic",
  "ing",
  "sheikh",
  "shaykh",
  "sheik",
  "shaikh",
  "haji",
  "hajji",
  "mullah",
  "mulla",
  "maulana",
  "general",
  "gen",
  "col",
]);

/**
 * Legal forms of companies (Mexico's S.A. de C.V., S. de R.L. de C.V., S.A.P.I., S.C., A.C.; the rest of Latin
 * America's Ltda., S.A.S., S.R.L.; and the English, German, Dutch, Russian and Gulf forms frequent on OFAC's list).
 * Dropped from entities' names: the same company is listed with and without them.
 */
const LEGAL_FORMS = new Set([
  "sa",
  "cv",
  "rl",
  "sapi",
  "sab",
  "sapib",
  "sc",
  "ac",
  "sas",
  "srl",
  "spr",
  "ltda",
  "cia",
  "inc",
  "incorporated",
  "ltd",
  "limited",
  "llc",
  "llp",
  "lp",
  "plc",
  "corp",
  "corporation",
  "co",
  "company",
  "gmbh",
  "ag",
  "kg",
  "bv",
  "nv",
  "spa",
  "sl",
  "sarl",
  "eirl",
  "jsc",
  "ojsc",
  "cjsc",
  "pjsc",
  "ooo",
  "zao",
  "oao",
  "pao",
  "fze",
  "fzco",
  "fzc",
  "fzllc",
  "pte",
  "pvt",
  "bhd",
  "sdn",
]);

/** Legal forms no person's name contains: their presence says a query without a type names an entity. */
const UNAMBIGUOUS_LEGAL_FORMS = new Set([
  "sa",
  "cv",
  "rl",
  "sapi",
  "sab",
  "sas",
  "srl",
  "ltda",
  "inc",
  "ltd",
  "limited",
  "llc",
  "plc",
  "corp",
  "corporation",
  "company",
  "gmbh",
  "jsc",
  "ooo",
  "fze",
  "fzco",
  "sarl",
]);

/**
 * Transliteration variants folded into one form. The groups are the spellings that recur on OFAC's and the UN's
 * lists for one Arabic (or Persian) name; Spanish has Ismael for Ismail, so it joins that group.
 */
export const VARIANT_GROUPS: readonly string[][] = [
  [
    "muhammad",
    "mohammed",
    "mohammad",
    "mohamed",
    "mohamad",
    "muhammed",
    "muhamad",
    "mohamud",
    "mohamoud",
    "mouhamed",
    "mohammod",
    "mohd",
    "muhamed",
    "mahomed",
  ],
  ["ahmad", "ahmed", "ahmet", "achmad"],
  ["husayn", "hussein", "husain", "hussain", "husein", "hosein", "hossein", "hussien", "houssein"],
  ["hasan", "hassan", "hasaan"],
  ["abdallah", "abdullah", "abdulla", "abdalla", "abdellah"],
  ["yusuf", "yousef", "youssef", "yousif", "yussuf", "yusef", "yousuf", "youssouf"],
  ["usama", "osama", "ousama", "oussama"],
  ["umar", "omar", "omer"],
  ["uthman", "othman", "osman", "usman", "othmane"],
  ["khalid", "khaled"],
  ["mahmud", "mahmoud", "mahmood"],
  ["mustafa", "mostafa", "moustafa", "mustapha", "mostapha"],
  ["ali", "aly"],
  ["salih", "saleh"],
  ["sayyid", "sayed", "sayyed", "syed", "seyed", "seyyed"],
  ["said", "saeed", "saied", "saiid"],
  ["jamal", "gamal"],
  ["qasim", "qassim", "qassem", "kassem", "kasim", "qasem", "kassim"],
  ["abu", "abou"],
  ["ibrahim", "ebrahim", "ibraheem"],
  ["ismail", "ismael", "esmail", "ismayil"],
  ["yahya", "yahia", "yehia", "yahyah"],
  ["rahman", "rehman"],
  ["rahim", "raheem"],
  ["karim", "kareem"],
  ["hamid", "hameed"],
  ["majid", "majeed"],
  ["rashid", "rasheed", "rachid"],
  ["nasir", "nasser", "naser", "nassir"],
  ["jafar", "jaafar", "jaffar"],
  ["faisal", "faysal", "faycal"],
  ["mansur", "mansour", "mansoor"],
  ["nur", "noor", "nour"],
  ["yasin", "yassin", "yaseen", "yassine"],
  ["zakariya", "zakaria", "zakariyya", "zakariah"],
  ["muhsin", "mohsen", "mohsin"],
  ["haydar", "haidar", "hayder", "heidar"],
  ["sulayman", "suleiman", "sulaiman", "soleiman", "suleyman", "slimane"],
  ["walid", "waleed"],
  ["tariq", "tarek", "tarik", "tareq"],
  ["hamza", "hamzah"],
  ["hafiz", "hafez"],
  ["aziz", "azeez"],
  ["amin", "ameen"],
  ["husam", "hussam", "houssam"],
  ["musa", "mousa", "moussa"],
  ["isa", "issa", "eissa"],
  ["yaqub", "yacoub", "yakub", "yaqoub"],
];

const VARIANTS = new Map<string, string>();
/** spellings by first letter, for typo'd spellings (below) */
const VARIANTS_BY_INITIAL = new Map<string, string[]>();
for (const group of VARIANT_GROUPS) {
  const canonical = group[0] as string;
  for (const spelling of group) {
    VARIANTS.set(spelling, canonical);
    VARIANTS_BY_INITIAL.set(spelling[0] as string, [
      ...(VARIANTS_BY_INITIAL.get(spelling[0] as string) ?? []),
      spelling,
    ]);
  }
}

/**
 * A token one typo away from a spelling of a folded group (five letters or more) folds too: otherwise "Isamel",
 * which is one swap from "Ismael", would be compared with the folded "ismail" and be three edits away. Cached:
 * an index asks once per distinct token.
 */
const typoVariants = new Map<string, string | null>();
function variantOf(token: string): string | undefined {
  const direct = VARIANTS.get(token);
  if (direct !== undefined || token.length < 5) return direct;
  let found = typoVariants.get(token);
  if (found === undefined) {
    found = null;
    for (const spelling of VARIANTS_BY_INITIAL.get(token[0] as string) ?? []) {
      if (spelling.length < 5 || Math.abs(spelling.length - token.length) > 1) continue;
      if (oneEditApart(token, spelling)) {
        found = VARIANTS.get(spelling) as string;
        break;
      }
    }
    if (typoVariants.size > 1_000_000) typoVariants.clear();
    typoVariants.set(token, found);
  }
  return found ?? undefined;
}

/** Whether a and b are one insertion, deletion, substitution or adjacent swap apart. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length)
    return (
      a.slice(i + 1) === b.slice(i + 1) ||
      (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2))
    );
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** "abd"-compounds are written joined or apart ("ABDULRAHMAN", "ABD AL RAHMAN", "ABDEL RAHMAN"): split them. */
const ABD_PREFIX = /^(abdul|abdel|abdal|abdol|abdoul|abdur|abdel|abd)(?=[a-z]{3,})/;
const ABD_FORMS = new Set(["abdul", "abdel", "abdal", "abdol", "abdoul", "abdur", "abd"]);

/** Abbreviations of Mexican given names written with a dot ("Ma. Guadalupe", "Fco. Javier", "J. Gpe."). */
const DOTTED_ABBREVIATIONS: [RegExp, string][] = [
  [/\bma\.\s*/gi, "maria "],
  [/\bfco\.\s*/gi, "francisco "],
  [/\bgpe\.?(?=\s|$)/gi, "guadalupe"],
];

/** Letters with no decomposition under NFD. */
const UNDECOMPOSED: Record<string, string> = {
  ß: "ss",
  ø: "o",
  æ: "ae",
  œ: "oe",
  đ: "d",
  ł: "l",
  ı: "i",
  þ: "th",
  ð: "d",
};

/** Lower case, without accents or the letters NFD leaves whole. */
export function foldAccents(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßøæœđłıþð]/g, (c) => UNDECOMPOSED[c] ?? c);
}

/** Whether a name with no declared type reads as a company's (it carries a legal form no person's name has). */
export function looksLikeEntity(raw: string): boolean {
  return tokensOf(raw, true).some((t) => UNAMBIGUOUS_LEGAL_FORMS.has(t));
}

/** The raw tokens: camelCase split, dotted abbreviations joined, accents and punctuation gone. */
function tokensOf(raw: string, person: boolean): string[] {
  // Invisible characters, compatibility forms and look-alike letters first (platform/visible-text.ts): "Guz\u200Bmán" is
  // one word, and "ＧＵＺＭＡＮ" or a Cyrillic "а" must reach the camelCase split below as the Latin letters shown.
  let text = visibleForm(raw);
  for (const [re, full] of DOTTED_ABBREVIATIONS) text = text.replace(re, full);
  // "delaTorre", "MariaJose": a capital inside a word starts a new one (before lower-casing loses it).
  text = text.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
  // OFAC writes persons "LAST NAMES, Given Names": put them back in the order the person writes them, so that
  // adjacent tokens (for joined forms such as "mariajose") are adjacent in both. Entities' commas precede legal
  // forms ("CIMEX, S.A.") and stay where they are.
  if (person) {
    const parts = text.split(",");
    if (parts.length === 2 && (parts[1] as string).trim()) text = `${parts[1]} ${parts[0]}`;
  }
  text = foldAccents(text);
  // "S.A.", "C.V.", "S. DE R.L.": letters each followed by a dot are one abbreviation.
  text = text.replace(/\b(?:[a-z]\.){2,}/g, (m) => ` ${m.replace(/\./g, "")} `);
  // Apostrophes join ("QA'IDA", "O'Brien"); every other non-letter, non-digit separates.
  text = text.replace(/['’`´ʼ]/g, "").replace(/[^\p{L}\p{N}]+/gu, " ");
  return text.split(" ").filter(Boolean);
}

/**
 * The tokens a name is compared by. `type` "entity" drops legal forms; without a type, a name carrying an
 * unambiguous legal form (S.A., LTDA., GMBH, ...) is read as an entity's, any other as a person's.
 */
export function normaliseName(raw: string, type?: "person" | "entity"): string[] {
  const out = comparedTokens(raw, type);
  // A name made only of particles or legal forms ("DE LA O", "S.A.") keeps its tokens rather than none: a list's
  // entry stays findable. A name screened with nothing to compare is refused before it gets here.
  if (out.length > 0) return out;
  const entity = type === "entity" || (type === undefined && looksLikeEntity(raw));
  return tokensOf(raw, !entity);
}

/**
 * The tokens that identify: normaliseName's without its fallback, so empty for a name made only of particles,
 * titles or legal forms ("de la", "S.A. de C.V."), which has nothing a list could be compared with.
 */
export function comparedTokens(raw: string, type?: "person" | "entity"): string[] {
  const entity = type === "entity" || (type === undefined && looksLikeEntity(raw));
  const out: string[] = [];
  const tokens = tokensOf(raw, !entity);
  tokens.forEach((token, i) => {
    if (PARTICLES.has(token) || TITLES.has(token)) return;
    if (entity && LEGAL_FORMS.has(token)) return;
    // "S. de R.L.": the lone "s" of a sociedad de responsabilidad limitada
    if (entity && token === "s" && tokens.slice(i + 1).includes("rl")) return;
    const variant = variantOf(token);
    if (variant) {
      out.push(variant);
      return;
    }
    if (ABD_FORMS.has(token)) {
      out.push("abd");
      return;
    }
    const abd = ABD_PREFIX.exec(token);
    if (abd) {
      const rest = token.slice(abd[0].length).replace(/^(al|ul|el|ur|ar|as|an)(?=[a-z]{3,})/, "");
      out.push("abd", variantOf(rest) ?? rest);
      return;
    }
    out.push(token);
  });
  return out;
}
