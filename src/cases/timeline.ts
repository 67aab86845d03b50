// A client's timeline in words: each event a catalog message with its parameters and its text in the reader's
// language; deadlines written in their jurisdiction's time zone (the law's day and hour).
import type { HistoryInWords } from "../alerts/index.ts";
import type { Aviso } from "../avisos/index.ts";
import { jurisdiction } from "../jurisdictions/index.ts";
import { CATALOG, type Lang, LOCALE, type MessageId, translate } from "../messages/index.ts";
import type { MonitoredAddress } from "../monitoring/index.ts";
import type { ClientFile } from "../reports/index.ts";
import type { ClientScreeningRecord } from "../screening/index.ts";
import type { TimelineEntry } from "./schemas.ts";

export const TIMELINE_MAX = 300;

type Params = Record<string, string | number>;

function entry(lang: Lang, at: Date, messageId: MessageId, params: Params): TimelineEntry {
  return { at: at.toISOString(), messageId, params, text: translate(lang, messageId, params) };
}

/** An instant as its jurisdiction's clock shows it, in the reader's words ("17 de diciembre de 2026, 23:59"). */
export function lawTime(lang: Lang, at: Date, countryCode: string): string {
  const timeZone = jurisdiction(countryCode)?.timeZone ?? "UTC";
  return new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: "long", timeStyle: "short", timeZone }).format(
    at,
  );
}

const causeId = (cause: string): MessageId | undefined => {
  const id = `case.cause.${cause}`;
  return id in CATALOG.en ? (id as MessageId) : undefined;
};

export interface TimelineParts {
  addresses: readonly MonitoredAddress[];
  screening: ClientScreeningRecord | undefined;
  histories: readonly HistoryInWords[];
  alertCauses: ReadonlyMap<string, string>;
  avisos: readonly Aviso[];
  files: readonly ClientFile[];
}

export function timelineOf(lang: Lang, p: TimelineParts): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const a of p.addresses)
    out.push(entry(lang, a.createdAt, "case.timeline.address", { address: a.address }));
  if (p.screening && p.screening.verdict !== "pending")
    out.push(entry(lang, p.screening.screenedAt, "case.timeline.screened", { verdict: p.screening.verdict }));
  for (const h of p.histories) {
    const cause = p.alertCauses.get(h.alertId) ?? "";
    const id = causeId(cause);
    out.push(
      entry(lang, h.at, "case.timeline.alert", {
        id: h.alertId,
        cause: id ? translate(lang, id) : cause,
        sentence: h.text,
      }),
    );
  }
  for (const a of p.avisos) {
    out.push(
      entry(lang, a.knownAt, "case.timeline.aviso", {
        reference: a.reference,
        countryCode: a.countryCode,
        deadline: lawTime(lang, a.deadline, a.countryCode),
      }),
    );
    if (a.settledAt)
      out.push(
        entry(lang, a.settledAt, "case.timeline.aviso_settled", {
          reference: a.reference,
          countryCode: a.countryCode,
        }),
      );
  }
  for (const f of p.files) {
    out.push(entry(lang, f.createdAt, "case.timeline.file", { name: f.name, period: f.period }));
    if (f.filedAt)
      out.push(
        entry(lang, f.filedAt, "case.timeline.file_filed", {
          name: f.name,
          period: f.period,
          folio: f.folio ?? "none",
        }),
      );
  }
  return out.sort((x, y) => Date.parse(x.at) - Date.parse(y.at)).slice(-TIMELINE_MAX);
}
