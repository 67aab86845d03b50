// How a part of the catalog is written: one object per language with the same keys, checked by the compiler (a key
// in English without its Spanish, or the reverse, does not compile). Texts are ICU MessageFormat
// ("vence en {hours, plural, one {# hora} other {# horas}}"); the catalog's test parses each and checks that both
// languages take the same arguments. Browser-safe: no Node import, so the pages bundle the same catalog.
export const LANGS = ["es", "en"] as const;
export type Lang = (typeof LANGS)[number];

/** The locale each language is formatted in (numbers, dates, plural rules). */
export const LOCALE: Record<Lang, string> = { es: "es-MX", en: "en-US" };

export type Part<K extends string> = { readonly en: Record<K, string>; readonly es: Record<K, string> };

/** One area's messages: `defineMessages({ en: {...}, es: {...} })`; the keys of `es` must be those of `en`. */
export function defineMessages<const E extends Record<string, string>>(part: {
  en: E;
  es: { [K in keyof E]: string };
}): Part<Extract<keyof E, string>> {
  return part as Part<Extract<keyof E, string>>;
}
