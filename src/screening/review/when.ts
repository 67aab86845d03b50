// A moment as a reader reads it in a sentence: the date and time in their language and time zone, with the zone.
import { type Lang, LOCALE } from "../../messages/index.ts";

export function when(lang: Lang, iso: string, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(LOCALE[lang], {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: timeZone ?? "UTC",
    timeZoneName: "short",
  }).format(new Date(iso));
}
