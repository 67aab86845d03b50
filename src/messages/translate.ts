// Formats a catalog message in a language with its parameters (ICU MessageFormat through intl-messageformat), and
// chooses the language: the user's own setting, else the request's Accept-Language, else Spanish (the region's).
// Browser-safe, shared by the API and the pages.
import { IntlMessageFormat } from "intl-messageformat";
import { CATALOG, type MessageId } from "./catalog.ts";
import { LANGS, type Lang, LOCALE } from "./define.ts";

export type Params = Record<string, string | number | Date | boolean | null | undefined>;

const compiled = new Map<string, IntlMessageFormat>();

export function translate(lang: Lang, id: MessageId, params?: Params): string {
  const key = `${lang}\u0000${id}`;
  let format = compiled.get(key);
  if (!format) {
    format = new IntlMessageFormat(CATALOG[lang][id], LOCALE[lang]);
    compiled.set(key, format);
  }
  return String(format.format(params as Record<string, string | number | Date>));
}

export const isLang = (value: unknown): value is Lang => LANGS.includes(value as Lang);

/** The language of a setting ("es", "es-MX", "en-GB") or of an Accept-Language header, by its q weights. */
export function negotiateLang(setting: string | null | undefined, acceptLanguage?: string | null): Lang {
  const own = setting?.slice(0, 2).toLowerCase();
  if (isLang(own)) return own;
  const asked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...rest] = part.trim().split(";");
      const q = rest.map((r) => r.trim()).find((r) => r.startsWith("q="));
      return { lang: tag.slice(0, 2).toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((a) => a.q > 0 && isLang(a.lang))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const first = asked[0]?.lang;
  return isLang(first) ? first : "es";
}

/**
 * The language of a request to the API: the person's own setting, else the Accept-Language header, else English
 * when no header was sent, or only "*" (a machine: integrators read what the API has always answered). A header
 * that names other languages only gets Spanish, the region's (negotiateLang).
 */
export function requestLang(setting: string | null | undefined, acceptLanguage?: string | null): Lang {
  if (setting) return negotiateLang(setting, acceptLanguage);
  // "*" (any language, what many HTTP libraries send unasked) is no preference: the same as no header.
  const named = (acceptLanguage ?? "")
    .split(",")
    .map((part) => part.trim().split(";")[0]?.trim() ?? "")
    .filter((tag) => tag !== "" && tag !== "*");
  if (named.length === 0) return "en";
  return negotiateLang(undefined, acceptLanguage);
}
