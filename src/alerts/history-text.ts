// An alert's history entry as a sentence in the reader's language, naming who acted ("María López movió la alerta a
// En revisión; nota: «…»."): the entry's change read clause by clause (raised, evidence, level, state, resolution,
// assignee, approval, export, filings, deadline), joined after the actor; the note last, as written.
import { CATALOG, type Lang, type MessageId, translate } from "../messages/index.ts";
import { actorWords, assigneeWords, type Names } from "./names.ts";

type Change = Record<string, unknown>;

const isMessageId = (id: string): id is MessageId => id in CATALOG.en;

const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

/** A level's word: a risk level's, a candidate's verdict, else the level as stored (a law's `illegal`, `warn`). */
export function levelWords(lang: Lang, level: string): string {
  for (const id of [`level.${level}`, `case.verdict.${level}`])
    if (isMessageId(id)) return translate(lang, id);
  return level;
}

function what(lang: Lang, change: Change, names: Names): string[] {
  const t = (id: MessageId, params?: Record<string, string | number>) => translate(lang, id, params);
  const clauses: string[] = [];
  const event = str(change.event);
  const txHash = str(change.txHash);
  const entry =
    str(change.entryId) && str(change.list)
      ? { entryId: String(change.entryId), list: String(change.list) }
      : undefined;
  if (event === "raised")
    clauses.push(
      txHash
        ? t("case.history.raised_tx", { txHash })
        : entry
          ? t("case.history.raised_entry", entry)
          : t("case.history.raised"),
    );
  if (event === "evidence_added")
    clauses.push(
      txHash
        ? t("case.history.evidence_tx", { txHash })
        : entry
          ? t("case.history.evidence_entry", entry)
          : t("case.history.evidence"),
    );
  // A match review (match-review.ts) says what was decided about the pair; its state and resolution follow.
  if (event === "match_reviewed" && entry)
    clauses.push(
      change.decision === "discard"
        ? t("reasons.history.match_discarded", entry)
        : t("reasons.history.match_confirmed", entry),
    );
  const level = change.level as { from?: unknown; to?: unknown } | undefined;
  if (level && typeof level === "object" && str(level.from) && str(level.to))
    clauses.push(
      t("case.history.level", {
        from: levelWords(lang, String(level.from)),
        to: levelWords(lang, String(level.to)),
      }),
    );
  const status = change.status as { to?: unknown } | undefined;
  const resolution = str(change.resolution);
  if (status?.to === "closed" && resolution) {
    const id = `case.resolution.${resolution}`;
    clauses.push(t("case.history.closed", { resolution: isMessageId(id) ? t(id) : resolution }));
  } else if (status && str(status.to)) {
    const id = `case.status.${String(status.to)}`;
    clauses.push(t("case.history.status", { status: isMessageId(id) ? t(id) : String(status.to) }));
  }
  const reference = str(change.reference);
  if (reference) clauses.push(t("case.history.reference", { reference }));
  if (change.assignee !== undefined) {
    const to = (change.assignee as { to?: unknown } | null)?.to;
    clauses.push(
      typeof to === "string"
        ? t("case.history.assigned", { assignee: assigneeWords(lang, to, names) })
        : t("case.history.unassigned"),
    );
  }
  const approval = change.approval as { by?: unknown } | undefined;
  if (approval && str(approval.by)) clauses.push(t("case.history.approval", { by: String(approval.by) }));
  if (event === "evidence_exported")
    clauses.push(t("case.history.exported", { format: str(change.format) ?? "json" }));
  if (event === "filings_marked_filed")
    clauses.push(
      t("case.history.filings_marked", { count: Array.isArray(change.paths) ? change.paths.length : 0 }),
    );
  if (event === "deadline_dropped")
    clauses.push(
      t("case.history.deadline_dropped", { filing: str(change.filing) ?? "", why: str(change.why) ?? "" }),
    );
  if (clauses.length === 0 && change.note === undefined) clauses.push(t("case.history.changed"));
  return clauses;
}

export function historyText(lang: Lang, entry: { actor: string; change: Change }, names: Names): string {
  const clauses = what(lang, entry.change, names);
  const note = str(entry.change.note);
  // A match review's note is the officer's reason for the decision.
  const noted = note
    ? entry.change.event === "match_reviewed"
      ? translate(lang, "reasons.history.reason", { reason: note })
      : translate(lang, "case.history.note", { note })
    : "";
  const told = [clauses.join(", "), noted].filter((s) => s.length > 0).join("; ");
  return translate(lang, "case.history.sentence", {
    actor: actorWords(lang, entry.actor, names),
    what: told,
  });
}
