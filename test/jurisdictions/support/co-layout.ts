// A check of a Colombian file against its documented layout (docs/reports/co.md): ISO-8859-1 text, CRLF line ends,
// a header (0), one body record per transaction (1) with its 21 fields in their formats, and a trailer (2) whose
// count and sums agree with the body. Returns what is wrong, line by line; an empty list is a file that conforms.

const DATE = /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3])[0-5]\d[0-5]\d$/;
const MONEY = /^\d+\.\d{2}$/;
/** A wallet as its chain writes it: EVM hex, or Tron base58check. */
const ADDRESS = /^(0x[0-9a-f]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/;
const HASH = /^0x[0-9a-f]{64}$/;

const BODY: [string, (v: string) => boolean][] = [
  ["record type", (v) => v === "1"],
  ["sequence", (v) => /^[1-9]\d*$/.test(v)],
  ["date", (v) => DATE.test(v)],
  ["time", (v) => TIME.test(v)],
  ["identification type", (v) => v.length > 0],
  ["identification number", (v) => v.length > 0],
  ["client number", (v) => v.length > 0],
  ["name", (v) => v.length > 0 && v === v.toUpperCase()],
  ["city (DANE code)", (v) => v === "" || /^\d{5}$/.test(v)],
  ["relationship start", (v) => v === "" || DATE.test(v)],
  ["wallet number", (v) => v.length > 0],
  ["direction", (v) => v === "E" || v === "R"],
  ["asset", (v) => /^[A-Z0-9]+$/.test(v) || /^0X[0-9A-F]{40}$/.test(v)],
  ["amount in units", (v) => /^\d+(\.\d+)?$/.test(v)],
  ["USD", (v) => MONEY.test(v)],
  ["COP", (v) => MONEY.test(v)],
  ["TRM", (v) => MONEY.test(v)],
  // An exchange's own trade has no wallet ("-") and, without a chain transaction, the platform's operation id.
  ["client wallet", (v) => ADDRESS.test(v) || v === "-"],
  ["counterparty wallet", (v) => ADDRESS.test(v) || v === "-"],
  ["transaction hash", (v) => HASH.test(v) || /^[A-Za-z0-9._:-]{1,128}$/.test(v)],
  ["mark", (v) => v === "I" || v === "M"],
];

export function checkCoLayout(text: string): string[] {
  const problems: string[] = [];
  if (!text.endsWith("\r\n")) problems.push("the file does not end with CRLF");
  const lines = text.replace(/\r\n$/, "").split("\r\n");
  if (lines.some((l) => l.includes("\n") || l.includes("\r"))) problems.push("a line break that is not CRLF");
  const header = (lines[0] ?? "").split("|");
  const trailer = (lines.at(-1) ?? "").split("|");
  const body = lines.slice(1, -1).map((l) => l.split("|"));
  if (header.length !== 4 || header[0] !== "0") problems.push(`header: ${lines[0]}`);
  if (!/^[A-Za-z0-9-]{1,20}$/.test(header[1] ?? "")) problems.push(`header: SIREL code ${header[1]}`);
  if (!DATE.test(header[2] ?? "")) problems.push(`header: cut-off date ${header[2]}`);
  if (Number(header[3]) !== body.length)
    problems.push(`header: ${header[3]} records, the body has ${body.length}`);
  body.forEach((fields, i) => {
    if (fields.length !== BODY.length)
      problems.push(`record ${i + 1}: ${fields.length} fields, not ${BODY.length}`);
    BODY.forEach(([name, ok], f) => {
      if (!ok(fields[f] ?? "")) problems.push(`record ${i + 1}: ${name} "${fields[f]}"`);
    });
    if (Number(fields[1]) !== i + 1) problems.push(`record ${i + 1}: sequence ${fields[1]}`);
  });
  const sum = (f: number) => body.reduce((s, r) => s + Number(r[f]), 0).toFixed(2);
  if (trailer.length !== 4 || trailer[0] !== "2") problems.push(`trailer: ${lines.at(-1)}`);
  if (Number(trailer[1]) !== body.length) problems.push(`trailer: ${trailer[1]} records`);
  if (trailer[2] !== sum(14)) problems.push(`trailer: USD ${trailer[2]}, the records add to ${sum(14)}`);
  if (trailer[3] !== sum(15)) problems.push(`trailer: COP ${trailer[3]}, the records add to ${sum(15)}`);
  return problems;
}
