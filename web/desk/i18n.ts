// Her language and her clock for every page: the catalog's texts (src/messages, the same one the service uses),
// times in her own time zone, deadlines in the jurisdiction's (the law's day and hour) with a countdown, amounts
// and numbers in es-MX or en-US. One context, read by every component with `useDesk()`.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { CATALOG, type MessageId } from "../../src/messages/catalog.ts";
import { type Lang, LOCALE } from "../../src/messages/define.ts";
import { type Params, translate } from "../../src/messages/translate.ts";
import type { Session } from "./types.ts";

export const DEFAULT_ZONE = "America/Mexico_City";

export interface Desk {
  lang: Lang;
  timeZone: string;
  session: Session | null;
  t: (id: MessageId, params?: Params) => string;
  /** an instant in her time zone */
  time: (iso: string | null | undefined) => string;
  /** a calendar day ("2026-11-29") as her language writes it */
  day: (isoDay: string | null | undefined) => string;
  /** a month ("2026-10") in words: "octubre de 2026" */
  month: (period: string) => string;
  /** a deadline as the law states it: in the jurisdiction's zone, with the zone's name */
  lawTime: (iso: string, timeZone: string) => string;
  /** "vence en 5 h" / "venció hace 2 días" */
  countdown: (iso: string, now?: number) => string;
  usd: (amount: number | null | undefined) => string;
  number: (n: number, digits?: number) => string;
  /** a text of the catalog by a dynamic id (a status, a cause), or the raw value when the catalog has none */
  label: (prefix: string, value: string) => string;
  setLang: (lang: Lang) => void;
}

const has = (id: string): id is MessageId => Object.hasOwn(CATALOG.en, id);

export function makeDesk(
  lang: Lang,
  timeZone: string,
  session: Session | null,
  setLang: (l: Lang) => void,
): Desk {
  const locale = LOCALE[lang];
  const zone = safeZone(timeZone);
  const timeFormat = new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    dateStyle: "medium",
    timeStyle: "short",
  });
  const dayFormat = new Intl.DateTimeFormat(locale, { timeZone: "UTC", dateStyle: "medium" });
  const usdFormat = new Intl.NumberFormat(locale, { style: "currency", currency: "USD" });
  const t = (id: MessageId, params?: Params) => translate(lang, id, params);
  return {
    lang,
    timeZone: zone,
    session,
    t,
    setLang,
    time: (iso) => (iso ? timeFormat.format(new Date(iso)) : "—"),
    month: (period) =>
      /^\d{4}-\d{2}$/.test(period)
        ? new Intl.DateTimeFormat(locale, { timeZone: "UTC", month: "long", year: "numeric" }).format(
            new Date(`${period}-15T12:00:00Z`),
          )
        : period,
    day: (isoDay) => (isoDay ? dayFormat.format(new Date(`${isoDay.slice(0, 10)}T12:00:00Z`)) : "—"),
    lawTime: (iso, tz) =>
      new Intl.DateTimeFormat(locale, {
        timeZone: safeZone(tz),
        dateStyle: "long",
        timeStyle: "short",
        // The law's hour as the law writes it (23:59), not "11:59 p.m.".
        hourCycle: "h23",
      }).format(new Date(iso)) +
      ` (${
        new Intl.DateTimeFormat(locale, { timeZone: safeZone(tz), timeZoneName: "longGeneric" })
          .formatToParts(new Date(iso))
          .find((p) => p.type === "timeZoneName")?.value ?? tz
      })`,
    countdown: (iso, now = Date.now()) => {
      const ms = new Date(iso).getTime() - now;
      const abs = Math.abs(ms);
      const [unit, count] =
        abs < 3_600_000
          ? (["minutes", Math.max(1, Math.round(abs / 60_000))] as const)
          : abs < 48 * 3_600_000
            ? (["hours", Math.round(abs / 3_600_000)] as const)
            : (["days", Math.round(abs / 86_400_000)] as const);
      return t(ms >= 0 ? `desk.due.in_${unit}` : `desk.due.ago_${unit}`, { count });
    },
    usd: (amount) => (amount === null || amount === undefined ? "—" : usdFormat.format(amount)),
    number: (n, digits = 0) =>
      new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(
        n,
      ),
    label: (prefix, value) => {
      const id = `${prefix}.${value}`;
      if (!has(id)) return value;
      try {
        return t(id);
      } catch {
        // A text that needs parameters is not a label: the raw value rather than a broken page.
        return value;
      }
    },
  };
}

function safeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return DEFAULT_ZONE;
  }
}

export const DeskContext = createContext<Desk>(makeDesk("es", DEFAULT_ZONE, null, () => {}));
export const useDesk = () => useContext(DeskContext);
