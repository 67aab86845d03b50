// Request dates (docs/api.md, "Envelope and errors"): `YYYY-MM-DD` or a full ISO 8601 date-time; a bare date is 00:00:00Z as
// a start and 23:59:59.999Z as an end.
import { type ErrorDetail, invalid, MESSAGES } from "../platform/errors.ts";

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** The instant a request date names, or undefined when it is not a valid date. */
export function parseRequestDate(value: string, end: "start" | "end"): Date | undefined {
  const day = DAY_RE.exec(value);
  if (day) {
    const [, y, m, d] = day;
    const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
    const date = new Date(ms);
    if (Number.isNaN(ms) || date.toISOString().slice(0, 10) !== value) return undefined;
    return end === "start" ? date : new Date(ms + 86_400_000 - 1);
  }
  if (!DATE_TIME_RE.test(value)) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls invalid days over (Feb 30 -> Mar 1): the calendar date must survive a round trip.
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  if (m < 1 || m > 12 || d < 1 || d > 31 || new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d)
    return undefined;
  return new Date(ms);
}

/** The accepted forms, as a refusal states them. */
const DATE_FORMS =
  "YYYY-MM-DD or an ISO 8601 date-time with its offset, e.g. 2024-01-31 or 2024-01-31T18:00:00Z";

/**
 * The window of a request's `fromDate` and `toDate` (both optional); a date of another form, or a window that ends
 * before it starts, is refused with the field and the accepted forms in `details`.
 */
export function requestWindow(
  fromDate: string | undefined,
  toDate: string | undefined,
): { from: Date | undefined; to: Date | undefined } {
  const from = fromDate === undefined ? undefined : parseRequestDate(fromDate, "start");
  const to = toDate === undefined ? undefined : parseRequestDate(toDate, "end");
  const details: ErrorDetail[] = [];
  if (fromDate !== undefined && !from)
    details.push({
      path: "/fromDate",
      message: `${JSON.stringify(fromDate)} is not a date: use ${DATE_FORMS}`,
    });
  if (toDate !== undefined && !to)
    details.push({ path: "/toDate", message: `${JSON.stringify(toDate)} is not a date: use ${DATE_FORMS}` });
  if (from && to && from > to)
    details.push({ path: "/toDate", message: `toDate (${toDate}) is before fromDate (${fromDate})` });
  if (details.length > 0) throw invalid(MESSAGES.invalidBody, details);
  return { from, to };
}
