// The viewer's language and formats: every text it shows comes from the one message catalog (src/messages) in
// the language chosen once at start (main.ts chooseLanguage: the signed-in person's setting, else `?lang=`, else
// the browser's), and numbers, amounts and dates are formatted with Intl in that language's locale and, for
// dates, in the person's time zone. English until a language is chosen, which is what the Node tests read.
import { CATALOG, type MessageId } from "../../src/messages/catalog.ts";
import { LANGS, type Lang, LOCALE } from "../../src/messages/define.ts";
import { negotiateLang, type Params, translate } from "../../src/messages/translate.ts";

let lang: Lang = "en";
let timeZone: string | undefined;

export const currentLang = (): Lang => lang;
export const currentTimeZone = (): string => timeZone ?? "UTC";

export function useLanguage(chosen: Lang, zone?: string): void {
  lang = chosen;
  timeZone = zone;
  numbers = new Intl.NumberFormat(LOCALE[lang]);
  usd = new Intl.NumberFormat(LOCALE[lang], { style: "currency", currency: "USD" });
}

/** The language of a setting, a `?lang=` or the browser's list of languages. */
export function languageOf(setting: string | null | undefined, browser: readonly string[]): Lang {
  if (setting && LANGS.includes(setting.slice(0, 2).toLowerCase() as Lang)) return negotiateLang(setting);
  return negotiateLang(undefined, browser.join(","));
}

export const t = (id: MessageId, params?: Params): string => translate(lang, id, params);

/** A catalog text by a computed id ("viewer.type.mixer"), or undefined when the catalog has none. */
export function tOptional(id: string, params?: Params): string | undefined {
  return Object.hasOwn(CATALOG.en, id) ? translate(lang, id as MessageId, params) : undefined;
}

let numbers = new Intl.NumberFormat(LOCALE.en);
let usd = new Intl.NumberFormat(LOCALE.en, { style: "currency", currency: "USD" });

export const formatNumber = (value: number): string => numbers.format(value);
export const formatUsd = (value: number): string => usd.format(value);

/**
 * A date and time in the person's zone (her setting, else the browser's), else UTC: "2024-01-15 13:45" in
 * English as before; es-MX's own form in Spanish ("15/01/24, 1:45 p.m.").
 */
export function formatDateTime(date: Date): string {
  const zone = timeZone ?? "UTC";
  if (lang === "en") {
    const parts = new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: zone,
    }).formatToParts(date);
    const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
    return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}`;
  }
  return new Intl.DateTimeFormat(LOCALE[lang], {
    dateStyle: "short",
    timeStyle: "short",
    timeZone: zone,
  }).format(date);
}
