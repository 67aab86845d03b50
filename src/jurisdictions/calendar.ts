// Filing deadlines, counted in the regulator's time zone: "by day 17 of the next month" is the last instant of 17
// <next month> on Mexico City's clock.
import { zonedMidnight } from "../platform/time-zone.ts";

/** The last millisecond of day `day` of the month `months` after `period` (YYYY-MM), in the time zone. */
export function deadlineAfter(period: string, timeZone: string, at: { months: number; day: number }): Date {
  const [year, month] = period.split("-").map(Number) as [number, number];
  const index = year * 12 + (month - 1) + at.months;
  const next = zonedMidnight(Math.floor(index / 12), (index % 12) + 1, at.day + 1, timeZone);
  return new Date(next.getTime() - 1);
}
