// The filing an alert makes due (docs/api.md, "Alerts"): a rule whose infringement makes an urgent aviso (Mexico's
// 24 hours) is due that long after it was detected; a country's other rules are due with the month's files of the
// operation's month, in the jurisdiction's time zone; the international rules make no filing of their own.
import { jurisdiction } from "../jurisdictions/index.ts";
import { zonedDay } from "../platform/time-zone.ts";

export interface AlertDeadline {
  at: Date;
  /** the filing's id in the jurisdiction's calendar, or `<code>-URGENT` for an urgent aviso */
  filing: string;
  source: string;
}

export function deadlineOf(
  law: { id: string; countryCode: string; source: string },
  detectedAt: Date,
  operationAt: Date,
): AlertDeadline | null {
  const j = jurisdiction(law.countryCode);
  if (!j) return null;
  if (j.urgent?.rules.includes(law.id))
    return {
      at: new Date(detectedAt.getTime() + j.urgent.dueWithinMs),
      filing: `${j.code}-URGENT`,
      source: law.source,
    };
  const period = zonedDay(operationAt, j.timeZone).slice(0, 7);
  const filing = j.calendar(period).find((f) => f.fileKinds?.includes("monthly"));
  return filing ? { at: filing.deadline, filing: filing.id, source: filing.source } : null;
}
