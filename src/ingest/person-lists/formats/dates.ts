// Dates as the lists write them, to ListEntry's YYYY, YYYY-MM or YYYY-MM-DD: OFAC's "12 Jan 1960", "Jan 1960",
// "1960", "circa 1960" and "1960 to 1962" (each year of a range, as a namesake born in any of them is not ruled
// out), and ISO dates with or without a time. Anything else gives no date rather than a wrong one.
const MONTHS: Record<string, string> = {
  jan: "01",
  feb: "02",
  mar: "03",
  apr: "04",
  may: "05",
  jun: "06",
  jul: "07",
  aug: "08",
  sep: "09",
  oct: "10",
  nov: "11",
  dec: "12",
};

/** A range longer than this is not a date of birth but noise; it gives its two ends only. */
const MAX_RANGE_YEARS = 15;

const pad = (n: string) => n.padStart(2, "0");

function valid(year: string, month?: string, day?: string): string | undefined {
  const y = Number(year);
  if (y < 1800 || y > 2100) return undefined;
  if (month === undefined) return year;
  const m = Number(month);
  if (m < 1 || m > 12) return undefined;
  if (day === undefined) return `${year}-${pad(month)}`;
  const d = Number(day);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d < 1 || d > last) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** One date: "12 Jan 1960", "Jan 1960", "1960", "1960-01-12", "1960-01", "1960-01-12T00:00:00". */
export function oneDate(text: string): string | undefined {
  const value = text.trim().replace(/\.$/, "");
  let m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:[T ][\d:.]+)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (m) return valid(m[1] as string, m[2], m[3]);
  m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  if (m) {
    const month = MONTHS[(m[2] as string).toLowerCase()];
    return month ? valid(m[3] as string, month, m[1]) : undefined;
  }
  m = /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  if (m) {
    const month = MONTHS[(m[1] as string).toLowerCase()];
    return month ? valid(m[2] as string, month) : undefined;
  }
  return undefined;
}

/** Every year from `from` to `to` (both included), or just the two ends for an implausibly long range. */
export function yearRange(from: string | number, to: string | number): string[] {
  const a = Number(from);
  const b = Number(to);
  if (!Number.isInteger(a) || !Number.isInteger(b) || !valid(String(a)) || !valid(String(b))) return [];
  if (b < a) return [String(a), String(b)];
  if (b - a > MAX_RANGE_YEARS) return [String(a), String(b)];
  const out: string[] = [];
  for (let y = a; y <= b; y++) out.push(String(y));
  return out;
}

/** OFAC's date-of-birth text: one date, "circa" one, or a range "1960 to 1962" (also "12 Jan 1960 to 1962"). */
export function ofacDates(text: string): string[] {
  const value = text
    .trim()
    .replace(/\.$/, "")
    .replace(/^(circa|approximately|approx\.?|about)\s+/i, "");
  const range = /^(.+?)\s+(?:to|-)\s+(.+)$/.exec(value);
  if (range) {
    const from = oneDate(range[1] as string);
    const to = oneDate(range[2] as string);
    if (from && to) {
      if (from.length === 4 && to.length === 4) return yearRange(from, to);
      return [from, to];
    }
  }
  const single = oneDate(value);
  return single ? [single] : [];
}
