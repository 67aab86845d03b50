// Markdown sections of evidence files (the alerts' evidence packs, and an investigation's): tables whose cells
// cannot break the table, a verdict with its model version, data coverage, findings and exposure paths with their
// transaction hashes, and the labels used with their sources. Pure functions of their input: the same input, the
// same bytes.
import type { AnalysisEvidence, LabelUsed } from "./schemas.ts";

/** A cell that is one code span of ours (an address, a hash): inert as it is. */
const CODE_SPAN = /^`[^`\r\n]*`$/;

/**
 * Markdown table cell text, rendered as text: pipes and line breaks would break the table, and what a person wrote
 * (an officer's note, a reference, an assignee) or a source gave could otherwise open raw HTML (`<img onerror>`), a
 * link or image (`[x](javascript:…)`, `<javascript:…>`), an entity, emphasis, or a bare link (`https://…`, `www.…`,
 * `name@host`). Each such character is backslash-escaped, which CommonMark shows as the character itself.
 */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return "—";
  const text = String(v).replace(/\r?\n|\r/g, " ");
  if (CODE_SPAN.test(text)) return text.replace(/\|/g, "\\|");
  return text
    .replace(/[\\`*_~[\]<>&|]/g, (c) => `\\${c}`)
    .replace(/([a-z][a-z0-9+.-]*):(?=\/\/)/gi, "$1\\:")
    .replace(/\b(www)\./gi, "$1\\.")
    .replace(/@/g, "\\@");
}

export function table(head: string[], rows: unknown[][]): string[] {
  if (rows.length === 0) return ["None.", ""];
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
    "",
  ];
}

/** A verdict: its figures, reason, data coverage, findings and exposure. */
export function verdictSection(v: AnalysisEvidence): string[] {
  const out: string[] = [];
  out.push(
    `## Verdict ${v.analysisId} (${v.kind})`,
    "",
    `Score ${v.riskScore}, level ${v.riskLevel}, model ${v.modelVersion ?? "unknown"}, recorded ${v.at}.`,
    "",
    v.riskReason,
    "",
  );
  if (v.coverage)
    out.push(
      "### Data coverage",
      "",
      ...table(
        ["Source", "Current", "From", "Until", "Block", "Lag (blocks)", "Transfers read"],
        [
          [
            v.coverage.source,
            v.coverage.current,
            v.coverage.dataFrom,
            v.coverage.dataUntil,
            v.coverage.block,
            v.coverage.lagBlocks,
            v.coverage.transfersRead,
          ],
        ],
      ),
      v.coverage.note,
      "",
    );
  out.push(
    "### Findings",
    "",
    ...table(
      ["Pattern", "What", "USD", "Wallets", "Transactions"],
      v.findings.map((f) => [f.pattern, f.message, f.usd, f.wallets.join(", "), f.txs.join(", ")]),
    ),
    "### Exposure",
    "",
    ...table(
      ["Category", "Direction", "Hops", "USD", "Share", "Counterparties", "Via", "Transactions"],
      v.exposure.map((e) => [
        `${e.category}${e.unsolicited ? " (unsolicited)" : ""}`,
        e.direction,
        e.hops,
        e.usd,
        e.share,
        e.counterparties.join(", "),
        e.via.join(", "),
        e.txs.join(", "),
      ]),
    ),
  );
  return out;
}

export function labelsSection(labels: readonly LabelUsed[]): string[] {
  return [
    "## Labels used",
    "",
    ...table(
      ["Address", "Label", "Category", "Source"],
      labels.map((l) => [`\`${l.address}\``, l.label, l.category, l.source]),
    ),
  ];
}
