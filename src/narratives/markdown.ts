// Markdown helpers of the wallet reports: data (labels, reasons, addresses) is written as inert text, so that a
// label cannot open a heading, a link, a table cell or an HTML tag in the report; and figures are formatted one
// way in both languages (1,234.56, as Mexico writes them), so that the answer check (check-answer.ts) reads them.

/**
 * Text from the data, on one line, with every character markdown or HTML would act on escaped; and no bare link
 * either: GitHub-flavoured renderers turn `https://…`, `www.…` and `name@host` in text into links, so the `:`, `@`
 * and the dot after `www` are escaped too (a backslash-escaped character shows as itself and ends the match).
 */
export function inert(value: string): string {
  return [...value]
    .map((c) => ((c.codePointAt(0) as number) < 0x20 || c === "\u007f" ? " " : c))
    .join("")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_{}[\]()<>#+!|~&:@-]/g, (c) => `\\${c}`)
    .replace(/(www)\./gi, "$1\\.");
}

/** An address or hash as code. */
export const code = (value: string) => `\`${value.replace(/`/g, "")}\``;

/** A figure with thousands separators and up to two decimals. */
export function figure(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 0 });
}

export const usd = (value: number) =>
  `USD ${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A markdown table; cells are already escaped. */
export function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}
