// The evidence pack of an alert (docs/api.md, "Alerts"): one file, JSON or markdown, holding what the alert rests on
// (its subject, cause, level and reason; the verdicts with their model version, data coverage, findings and exposure
// paths with transaction hashes; the transfers; the law rules with their legal sources; the labels used with their
// sources) and its whole triage history. The same alert in the same state gives the same bytes: nothing in it
// depends on the moment it is asked for (no "generated at", no "overdue"), and the downloads themselves, which the
// history records with the file's SHA-256, are left out of the history it shows.
import type { Kysely } from "kysely";
import type { AddressCodec } from "../chains/address/index.ts";
import { lockAuditChain } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { type EvidenceFile, evidenceFile, type PackFormat } from "./evidence-file.ts";
import { labelsSection, table, verdictSection } from "./evidence-markdown.ts";
import { appendHistory } from "./raise.ts";
import { alertHistory, alertRow } from "./read.ts";
import type { AlertEvidence } from "./schemas.ts";

const EXPORTED = "evidence_exported";
const PACK_VERSION = "vigia-alert-evidence/1";

/** The pack's content, in a fixed key order. */
async function packOf(db: Kysely<DB>, projectId: number, alertId: string) {
  const row = await alertRow(db, projectId, alertId);
  const history = (await alertHistory(db, String(row.id))).filter((h) => h.change.event !== EXPORTED);
  const evidence: AlertEvidence = row.evidence;
  return {
    pack: PACK_VERSION,
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
    },
    verdicts: evidence.analyses ?? [],
    transfers: evidence.transfers,
    laws: evidence.laws,
    labels: evidence.labels ?? [],
    // Only `person_match` alerts have persons: other packs keep their bytes.
    ...(evidence.persons ? { persons: evidence.persons } : {}),
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
): Promise<EvidenceFile> {
  const pack = await packOf(db, projectId, alertId);
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
  const out: string[] = [
    `# Evidence of alert ${a.id}`,
    "",
    `Pack ${p.pack}. Its SHA-256 is given with each download (header \`x-evidence-sha256\`) and kept in the alert's history.`,
    "",
    "## Subject",
    "",
    ...table(
      ["Field", "Value"],
      [
        ["Project", a.projectId],
        ["Chain", a.chainId],
        ["Address", `\`${a.address}\``],
        ["User", a.userId],
        ["Cause", `${a.cause} (${a.causeKey})`],
        ["Level", a.level],
        ["Status", a.status],
        ["Resolution", a.resolution],
        ["Reference", a.reference],
        ["Assignee", a.assignee],
        ["Raised", a.createdAt],
        ["Last changed", a.updatedAt],
        ["Deadline", a.deadline ? `${a.deadline.at} (${a.deadline.filing}; ${a.deadline.source})` : null],
        ["Notification", a.notificationId],
      ],
    ),
    "## Reason",
    "",
    a.reason,
    "",
  ];
  if (p.laws.length > 0)
    out.push(
      "## Law rules",
      "",
      ...table(
        ["Rule", "Name", "Risk", "Country", "Source"],
        p.laws.map((l) => [l.id, l.name, l.risk, l.countryCode, l.source]),
      ),
    );
  if (p.transfers.length > 0)
    out.push(
      "## Transfers",
      "",
      ...table(
        ["Time (UTC)", "Transaction", "Log", "Direction", "Counterparty", "USD"],
        p.transfers.map((t) => [
          t.at,
          `\`${t.txHash}\``,
          t.logIndex,
          t.direction,
          t.counterparty ? `\`${t.counterparty}\`` : null,
          t.usd,
        ]),
      ),
    );
  if (p.persons && p.persons.length > 0)
    out.push(
      "## Lists of persons",
      "",
      ...table(
        [
          "Screened",
          "Who",
          "Person",
          "List",
          "Version",
          "Entry",
          "Listed as",
          "Score",
          "Verdict",
          "Agreeing",
          "Notes",
          "Programmes",
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
          c.verdict,
          c.matchedFields.join(", "),
          c.notes.join("; "),
          c.entry.programs.join(", "),
        ]),
      ),
    );
  for (const v of p.verdicts) out.push(...verdictSection(v));
  out.push(
    ...labelsSection(p.labels),
    "## Triage history",
    "",
    ...table(
      ["When (UTC)", "Who", "Change"],
      p.history.map((h) => [h.at, h.actor, JSON.stringify(h.change)]),
    ),
  );
  return `${out.join("\n").trimEnd()}\n`;
}
