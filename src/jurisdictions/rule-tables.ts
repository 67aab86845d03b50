// The law rules as docs/regulation.md shows them: one markdown table per rule book (each jurisdiction, then the
// international rules), a row per version of each rule with its dates, what it checks, whether its figures are
// verified, and its source. scripts/regulation-tables.ts writes them between the page's `<!-- rules:XX -->`
// markers, and a test keeps the page and the data in step.
import type { RuleAmount, RuleBook, RuleCheck, RuleVersion } from "../regulation/index.ts";
import { INTERNATIONAL, JURISDICTIONS } from "./registry.ts";

const amount = (a: RuleAmount) => ("usd" in a ? `USD ${a.usd.toLocaleString("en-US")}` : `${a.uma} UMA`);
const compare = (c: "at-least" | "more-than" | undefined) => (c === "more-than" ? "over" : "from");

function check(c: RuleCheck): string {
  switch (c.kind) {
    case "single":
      return `one transfer ${compare(c.compare)} ${amount(c.minimum)}`;
    case "accumulated":
      return `the client's transfers add up ${c.compare === "more-than" ? "to over" : "to"} ${amount(c.minimum)} (${c.accumulation})`;
    case "counterparty":
      return `counterparty labelled ${c.categories.join(", ")}${c.onlyWith ? `, with ${c.onlyWith.join(" or ")}` : ""}`;
    case "vasp-counterparty":
      return `counterparty is a virtual-asset service provider${c.minimum ? `, ${compare(c.compare)} ${amount(c.minimum)}` : ", any amount"}`;
    case "client-listed":
      return `client (or its representative or a beneficial owner) is a match on ${c.lists.join(", ")}${c.onlyWith ? `, with ${c.onlyWith.join(" or ")}` : ", any amount"}`;
    case "high-risk-residence":
      return `client resides in a country on ${c.lists.join(" or ")}, any amount (an alert)`;
    case "fee":
      return `a fee on one operation ${compare(c.compare)} ${amount(c.minimum)}, unless the operation meets ${c.coveredBy}`;
  }
}

const dates = (v: RuleVersion) =>
  v.validFrom && v.validTo
    ? `${v.validFrom} to ${v.validTo}`
    : v.validFrom
      ? `from ${v.validFrom}`
      : v.validTo
        ? `until ${v.validTo}`
        : "always";

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The table of one rule book. */
export function ruleTable(book: RuleBook): string {
  const rows = book.rules.flatMap((rule) =>
    rule.versions.map((v) =>
      [`\`${rule.id}\``, rule.risk, dates(v), check(v.check), v.verified ? "yes" : "**no**", v.source].map(
        cell,
      ),
    ),
  );
  const header = ["id", "risk", "in force", "infringed when", "verified", "source"];
  // Aligned as the formatter aligns markdown tables, so that formatting the page changes nothing.
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** Every rule book's table by its code. */
export function ruleTables(): Map<string, string> {
  return new Map([...JURISDICTIONS, INTERNATIONAL].map((b) => [b.code, ruleTable(b)]));
}

/** A page's tables with their cells trimmed and their separator rows alike: what a formatter may change, undone. */
export function tablesOnly(page: string): string {
  return page
    .split("\n")
    .map((l) =>
      l.startsWith("|")
        ? l
            .split("|")
            .map((c) => (/^\s*-+\s*$/.test(c) ? "---" : c.trim()))
            .join("|")
        : l,
    )
    .join("\n");
}

/** The page with each `<!-- rules:XX -->` section replaced by its table. */
export function withRuleTables(page: string): string {
  let out = page;
  for (const [code, table] of ruleTables()) {
    const open = `<!-- rules:${code} -->`;
    const close = `<!-- /rules:${code} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start === -1 || end === -1) throw new Error(`docs/regulation.md has no ${open} ... ${close} section`);
    out = `${out.slice(0, start + open.length)}\n${table}\n${out.slice(end)}`;
  }
  return out;
}
