// A report period: a calendar month `YYYY-MM` in the regulator's time zone (regulation's REGULATOR_TIME_ZONES).
// Its bounds are instants, so a transfer at 03:00 UTC on 1 October belongs to September in Mexico City.
import { zonedMidnight, zonedParts } from "../platform/time-zone.ts";

export const PERIOD_PATTERN = "^\\d{4}-(0[1-9]|1[0-2])$";
const PERIOD = new RegExp(PERIOD_PATTERN);

export const isPeriod = (value: string): boolean => PERIOD.test(value);

export interface PeriodBounds {
  /** first instant of the month */
  start: Date;
  /** first instant of the next month */
  end: Date;
}

function split(period: string): [number, number] {
  if (!isPeriod(period)) throw new Error(`invalid period ${period}`);
  return [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
}

const format = (year: number, month: number) => `${year}-${String(month).padStart(2, "0")}`;

export function periodBounds(period: string, timeZone: string): PeriodBounds {
  const [year, month] = split(period);
  const next = month === 12 ? [year + 1, 1] : [year, month + 1];
  return {
    start: zonedMidnight(year, month, 1, timeZone),
    end: zonedMidnight(next[0] as number, next[1] as number, 1, timeZone),
  };
}

/** The period an instant falls in. */
export function periodOf(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return format(p.year, p.month);
}

/** The month before a period. */
export function previousPeriod(period: string): string {
  const [year, month] = split(period);
  return month === 1 ? format(year - 1, 12) : format(year, month - 1);
}

/** `YYYYMM`, as the AVI's mes_reportado writes it. */
export const compactPeriod = (period: string) => period.replace("-", "");
