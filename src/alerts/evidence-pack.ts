// The evidence pack of an alert (docs/api.md, "Alerts"): one file, JSON or markdown, holding what the alert rests on
// (its subject, cause, level and reason; the verdicts with their model version, data coverage, findings and exposure
// paths with transaction hashes; the transfers; the law rules with their legal sources; the labels used with their
// sources; for a person match, the client and the list entry side by side, why they were found alike and the
// officer's review) and its whole triage history, each entry also as a sentence naming who acted. It is written in
// the reader's language (the headings, the words of levels and states, the sentences; the figures, hashes and the
// law's own texts stay as recorded). The same alert in the same state and language gives the same bytes: nothing
// in it depends on the moment it is asked for (no "generated at", no "overdue"; times in UTC), and the downloads
// themselves, which the history records with the file's SHA-256, are left out of the history it shows.
import type { Kysely } from "kysely";
import type { AddressCodec } from "../chains/address/index.ts";
import type { Lang, MessageId } from "../messages/index.ts";
import { lockAuditChain } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { type EvidenceFile, evidenceFile, type PackFormat } from "./evidence-file.ts";
import { labelsSection, table, verdictSection, words } from "./evidence-markdown.ts";
import { historyText, levelWords } from "./history-text.ts";
import { actorWords, assigneeWords, projectNames } from "./names.ts";
import { appendHistory } from "./raise.ts";
import { alertHistory, alertRow, reasonTextOf } from "./read.ts";
import type { AlertEvidence } from "./schemas.ts";

/**
 * A person match side by side, as the screening shows it (src/screening/review): what the pack writes of it. The
 * screening's own view is passed in by whoever wires the rooms (the alerts do not read the lists).
 */
export interface PackMatch {
  client: {
    roleText: string;
    names: string[];
    nameAsRead: string | null;
    birthDate: string | null;
    incorporationDate: string | null;
    nationality: string | null;
    identifiers: { kind: string; value: string; country?: string }[];
  };
  entry: {
    list: string;
    listVersion: string;
    listDate: string | null;
    alertedVersion: string;
    source: string;
    entryId: string;
    names: string[];
    birthDates: string[];
    nationalities: string[];
    identifiers: { kind: string; value: string; country?: string }[];
    programmes: string[];
  };
  score: number;
  why: string[];
  review?: { decision: string; decisionText: string; reason: string; by: string; byName: string; at: string };
  earlierReview?: { text: string };
}

export type MatchOf = (projectId: number, alertId: string, lang: Lang) => Promise<PackMatch>;

const EXPORTED = "evidence_exported";
const PACK_VERSION = "vigia-alert-evidence/1";

const STATUS_WORDS = new Set(["open", "in_review", "escalated", "closed"]);
const RESOLUTION_WORDS = new Set(["false_positive", "no_action", "reported"]);

/** The pack's content, in a fixed key order. */
async function packOf(db: Kysely<DB>, projectId: number, alertId: string, lang: Lang, matchOf?: MatchOf) {
  const row = await alertRow(db, projectId, alertId);
  const names = await projectNames(db, projectId);
  const history = (await alertHistory(db, String(row.id)))
    .filter((h) => h.change.event !== EXPORTED)
    .map((h) => ({ ...h, by: actorWords(lang, h.actor, names), text: historyText(lang, h, names) }));
  const evidence: AlertEvidence = row.evidence;
  const t = words(lang);
  const match =
    row.cause === "person_match" && matchOf ? await matchOf(projectId, String(row.id), lang) : null;
  return {
    pack: PACK_VERSION,
    lang,
    alert: {
      id: String(row.id),
      projectId: row.project_id,
      chainId: row.chain_id,
      address: row.address,
      userId: row.user_id,
      cause: row.cause,
      causeKey: row.cause_key,
      level: row.level,
      reason: row.reason,
      // The reason in the pack's language, written from the evidence; `reason` is the English one stored.
      reasonText: reasonTextOf(row, lang),
      status: row.status,
      resolution: row.resolution,
      reference: row.reference,
      assignee: row.assignee,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      deadline: row.deadline
        ? { at: row.deadline.toISOString(), filing: row.deadline_filing, source: row.deadline_source }
        : null,
      notificationId: row.notification_id === null ? null : String(row.notification_id),
      // The same, in words of the pack's language.
      levelText: levelWords(lang, row.level),
      statusText: STATUS_WORDS.has(row.status) ? t(`case.status.${row.status}` as MessageId) : row.status,
      resolutionText:
        row.resolution && RESOLUTION_WORDS.has(row.resolution)
          ? t(`case.resolution.${row.resolution}` as MessageId)
          : null,
      assigneeText: row.assignee === null ? null : assigneeWords(lang, row.assignee, names),
    },
    verdicts: evidence.analyses ?? [],
    transfers: evidence.transfers,
    laws: evidence.laws,
    labels: evidence.labels ?? [],
    // Only `person_match` alerts have persons: other packs keep their bytes.
    ...(evidence.persons ? { persons: evidence.persons } : {}),
    // Only the alerts of the exchange's operations have them: other packs keep their bytes.
    ...(evidence.operations ? { operations: evidence.operations } : {}),
    ...(evidence.operationRule ? { operationRule: evidence.operationRule } : {}),
    ...(match ? { match } : {}),
    wallets: evidence.wallets,
    history,
  };
}
type Pack = Awaited<ReturnType<typeof packOf>>;

/** The alert's evidence pack; its download is recorded in the history (once per distinct file). */
export async function exportEvidence(
  db: Kysely<DB>,
  projectId: number,
  alertId: string,
  format: PackFormat,
  actor: string,
  now: Date,
  codecOf: (chainId: number) => AddressCodec,
  lang: Lang = "es",
  matchOf?: MatchOf,
): Promise<EvidenceFile> {
  const pack = await packOf(db, projectId, alertId, lang, matchOf);
  const body = format === "json" ? `${JSON.stringify(pack, null, 2)}\n` : markdownOf(pack);
  const file = evidenceFile(body, format, `alert-${pack.alert.id}`, codecOf(pack.alert.chainId));
  const { sha256 } = file;
  await db.transaction().execute(async (trx) => {
    await lockAuditChain(trx, projectId);
    const row = await alertRow(trx, projectId, alertId, true);
    const known = (await alertHistory(trx, String(row.id))).some(
      (h) => h.change.event === EXPORTED && h.change.sha256 === sha256,
    );
    if (!known) await appendHistory(trx, String(row.id), actor, { event: EXPORTED, format, sha256 }, now);
  });
  return file;
}

function markdownOf(p: Pack): string {
  const a = p.alert;
  const lang = p.lang;
  const t = words(lang);
  const tab = (head: MessageId[], rows: unknown[][]) =>
    table(
      head.map((h) => t(h)),
      rows,
      lang,
    );
  const out: string[] = [
    `# ${t("evidence.title", { id: a.id })}`,
    "",
    t("evidence.intro", { pack: p.pack }),
    "",
    `## ${t("evidence.section.subject")}`,
    "",
    ...tab(
      ["evidence.field.field", "evidence.field.value"],
      [
        [t("evidence.field.project"), a.projectId],
        [t("evidence.field.chain"), a.chainId],
        [t("evidence.field.address"), `\`${a.address}\``],
        [t("evidence.field.user"), a.userId],
        [t("evidence.field.cause"), `${a.cause} (${a.causeKey})`],
        [t("evidence.field.level"), `${a.levelText} (${a.level})`],
        [t("evidence.field.status"), a.statusText],
        [t("evidence.field.resolution"), a.resolutionText],
        [t("evidence.field.reference"), a.reference],
        [t("evidence.field.assignee"), a.assigneeText],
        [t("evidence.field.raised"), a.createdAt],
        [t("evidence.field.changed"), a.updatedAt],
        [
          t("evidence.field.deadline"),
          a.deadline ? `${a.deadline.at} (${a.deadline.filing}; ${a.deadline.source})` : null,
        ],
        [t("evidence.field.notification"), a.notificationId],
      ],
    ),
    `## ${t("evidence.section.reason")}`,
    "",
    a.reasonText,
    "",
  ];
  if (p.laws.length > 0)
    out.push(
      `## ${t("evidence.section.laws")}`,
      "",
      ...tab(
        [
          "evidence.col.rule",
          "evidence.col.name",
          "evidence.col.risk",
          "evidence.col.country",
          "evidence.col.source",
        ],
        p.laws.map((l) => [l.id, l.name, l.risk, l.countryCode, l.source]),
      ),
    );
  if (p.transfers.length > 0)
    out.push(
      `## ${t("evidence.section.transfers")}`,
      "",
      ...tab(
        [
          "evidence.col.time",
          "evidence.col.transaction",
          "evidence.col.log",
          "evidence.col.direction",
          "evidence.col.counterparty",
          "evidence.col.usd",
        ],
        p.transfers.map((x) => [
          x.at,
          `\`${x.txHash}\``,
          x.logIndex,
          x.direction,
          x.counterparty ? `\`${x.counterparty}\`` : null,
          x.usd,
        ]),
      ),
    );
  if (p.operations && p.operations.length > 0)
    out.push(
      `## ${t("evidence.section.operations")}`,
      "",
      ...tab(
        [
          "evidence.col.time",
          "evidence.col.operation",
          "evidence.col.amount",
          "evidence.col.counterparty",
          "evidence.col.reference",
          "evidence.col.usd",
        ],
        p.operations.map((o) => [
          o.at,
          `${o.operationId} (${o.kind})`,
          `${o.unit} ${o.amount}`,
          [o.counterparty, o.account, o.address].filter(Boolean).join(" · ") || null,
          o.reference ?? o.txHash ?? null,
          o.usd,
        ]),
      ),
    );
  if (p.match) out.push(...matchSection(lang, p.match));
  if (p.persons && p.persons.length > 0)
    out.push(
      `## ${t("evidence.section.persons")}`,
      "",
      ...tab(
        [
          "evidence.col.screened",
          "evidence.col.who",
          "evidence.col.person",
          "evidence.col.list",
          "evidence.col.version",
          "evidence.col.entry",
          "evidence.col.listed_as",
          "evidence.col.score",
          "evidence.col.verdict",
          "evidence.col.agreeing",
          "evidence.col.notes",
          "evidence.col.programmes",
        ],
        p.persons.map((c) => [
          c.screenedAt,
          c.role,
          c.subject,
          c.list,
          c.listVersion,
          c.entryId,
          c.entry.names.join("; "),
          c.score,
          levelWords(lang, c.verdict),
          c.matchedFields.join(", "),
          c.notes.join("; "),
          c.entry.programs.join(", "),
        ]),
      ),
    );
  for (const v of p.verdicts) out.push(...verdictSection(v, lang));
  out.push(
    ...labelsSection(p.labels, lang),
    `## ${t("evidence.section.history")}`,
    "",
    ...tab(
      ["evidence.col.when", "evidence.col.who", "evidence.col.what", "evidence.col.change"],
      p.history.map((h) => [h.at, h.by, h.text, JSON.stringify(h.change)]),
    ),
  );
  return `${out.join("\n").trimEnd()}\n`;
}

/** A person match: the client and the entry side by side, why they were found alike, and the officer's review. */
function matchSection(lang: Lang, m: PackMatch): string[] {
  const t = words(lang);
  const ids = (list: PackMatch["client"]["identifiers"]) =>
    list.length === 0
      ? null
      : list.map((i) => `${i.kind.toUpperCase()} ${i.value}${i.country ? ` (${i.country})` : ""}`).join("; ");
  const c = m.client;
  const e = m.entry;
  const out = [
    `## ${t("evidence.section.match")}`,
    "",
    ...table(
      [t("evidence.field.field"), t("evidence.col.client"), t("evidence.col.listed")],
      [
        [t("evidence.match.role"), c.roleText, e.entryId],
        [
          t("evidence.match.names"),
          [...c.names, ...(c.nameAsRead ? [c.nameAsRead] : [])].join("; "),
          e.names.join("; "),
        ],
        [t("evidence.match.date"), c.birthDate ?? c.incorporationDate, e.birthDates.join(", ")],
        [t("evidence.match.nationality"), c.nationality, e.nationalities.join(", ")],
        [t("evidence.match.identifiers"), ids(c.identifiers), ids(e.identifiers)],
        [t("evidence.match.programme"), null, e.programmes.join(", ")],
        [t("evidence.match.list"), null, `${e.list} ${e.listVersion}${e.listDate ? ` (${e.listDate})` : ""}`],
      ],
      lang,
    ),
  ];
  if (e.source !== "alerted")
    out.push(
      t("evidence.match.version_note", { source: e.source, alerted: e.alertedVersion, shown: e.listVersion }),
      "",
    );
  out.push(`### ${t("evidence.section.why")}`, "", ...m.why.map((w) => `- ${w}`), "");
  if (m.earlierReview) out.push(m.earlierReview.text, "");
  out.push(
    `### ${t("evidence.section.review")}`,
    "",
    m.review
      ? t("evidence.review.line", {
          decision: m.review.decisionText,
          by: m.review.byName,
          at: m.review.at,
          reason: m.review.reason,
        })
      : t("evidence.review.none"),
    "",
  );
  return out;
}
