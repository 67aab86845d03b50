// Markdown sections of evidence files (the alerts' evidence packs, and an investigation's): tables whose cells
// cannot break the table, a verdict with its model version, data coverage, findings and exposure paths with their
// transaction hashes, and the labels used with their sources, headed in the reader's language (the catalog's
// `evidence.*`). Pure functions of their input: the same input and language, the same bytes.
import { type Lang, type MessageId, type Params, translate } from "../messages/index.ts";
import type { AnalysisEvidence, LabelUsed } from "./schemas.ts";

/** The catalog's text of an `evidence.*` id in a language. */
export const words = (lang: Lang) => (id: MessageId, params?: Params) => translate(lang, id, params);

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

export function table(head: string[], rows: unknown[][], lang: Lang = "en"): string[] {
  if (rows.length === 0) return [translate(lang, "evidence.none"), ""];
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
    "",
  ];
}

/** A verdict: its figures, reason, data coverage, findings and exposure. */
export function verdictSection(v: AnalysisEvidence, lang: Lang = "en"): string[] {
  const t = words(lang);
  const out: string[] = [];
  out.push(
    `## ${t("evidence.section.verdict", { id: v.analysisId, kind: v.kind })}`,
    "",
    t("evidence.verdict.line", {
      score: String(v.riskScore),
      level: v.riskLevel,
      model: v.modelVersion ?? "—",
      at: v.at,
    }),
    "",
    v.riskReason,
    "",
  );
  if (v.coverage)
    out.push(
      `### ${t("evidence.section.coverage")}`,
      "",
      ...table(
        [
          t("evidence.col.source"),
          t("evidence.col.current"),
          t("evidence.col.from"),
          t("evidence.col.until"),
          t("evidence.col.block"),
          t("evidence.col.lag"),
          t("evidence.col.read"),
        ],
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
        lang,
      ),
      v.coverage.note,
      "",
    );
  out.push(
    `### ${t("evidence.section.findings")}`,
    "",
    ...table(
      [
        t("evidence.col.pattern"),
        t("evidence.col.what"),
        t("evidence.col.usd"),
        t("evidence.col.wallets"),
        t("evidence.col.transactions"),
      ],
      v.findings.map((f) => [f.pattern, f.message, f.usd, f.wallets.join(", "), f.txs.join(", ")]),
      lang,
    ),
    `### ${t("evidence.section.exposure")}`,
    "",
    ...table(
      [
        t("evidence.col.category"),
        t("evidence.col.direction"),
        t("evidence.col.hops"),
        t("evidence.col.usd"),
        t("evidence.col.share"),
        t("evidence.col.counterparties"),
        t("evidence.col.via"),
        t("evidence.col.transactions"),
      ],
      v.exposure.map((e) => [
        `${e.category}${e.unsolicited ? " (unsolicited)" : ""}${e.sameOwnerAs ? ` (${t("evidence.same_owner", { address: e.sameOwnerAs.address })})` : ""}`,
        e.direction,
        e.hops,
        e.usd,
        e.share,
        e.counterparties.join(", "),
        e.via.join(", "),
        e.txs.join(", "),
      ]),
      lang,
    ),
  );
  return out;
}

export function labelsSection(labels: readonly LabelUsed[], lang: Lang = "en"): string[] {
  const t = words(lang);
  return [
    `## ${t("evidence.section.labels")}`,
    "",
    ...table(
      [
        t("evidence.field.address"),
        t("evidence.col.label"),
        t("evidence.col.category"),
        t("evidence.col.source"),
      ],
      labels.map((l) => [`\`${l.address}\``, l.label, l.category, l.source]),
      lang,
    ),
  ];
}
