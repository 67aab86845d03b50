// One alert, opened from the inbox: why it was raised and its evidence (in her language as the service writes
// it), its deadline as the law states it, its history as sentences, and what she may do: assign it to a person,
// move it (officer and up), and go to the case, the match review, an aviso, the graph viewer, the wallet report
// or the evidence pack.
import { useState } from "preact/hooks";
import { call, download, get } from "../api.ts";
import { type Desk, useDesk } from "../i18n.ts";
import { renderMarkdown } from "../markdown.ts";
import {
  type AlertStatus,
  type AlertWithHistory,
  atLeast,
  type HistoryEntry,
  type Person,
  RESOLUTIONS,
} from "../types.ts";
import { Badge, ErrorLine, Fields, Loading, short, useLoad } from "../ui.tsx";

/** The person an alert is assigned to, as the select's value: their user id. */
/** A rule's title in her language (the catalog's `rule.<id>`), else the name the rule was stored with. */
function ruleName(d: Desk, id: string, name: string): string {
  const title = d.label("rule", id);
  return title === id ? name : title;
}

const assigneeId = (a: { assignee: string | null; assigneeUser?: { id: number } | null }) =>
  a.assigneeUser ? String(a.assigneeUser.id) : (/^user:(\d+)$/.exec(a.assignee ?? "")?.[1] ?? "");

export function actorText(d: Desk, actor: string, people: Person[]): string {
  const user = /^user:(\d+)$/.exec(actor);
  if (user)
    return (
      people.find((p) => String(p.id) === user[1])?.displayName ??
      d.t("desk.actor.user", { id: user[1] ?? "" })
    );
  const key = /^key:(\d+)$/.exec(actor);
  if (key) return d.t("desk.actor.key", { id: key[1] ?? "" });
  if (actor === "system") return d.t("desk.actor.system");
  return actor;
}

/** The service's sentence when it writes one; else one made here from the change. */
function historyText(d: Desk, entry: HistoryEntry, people: Person[]): string {
  if (entry.text) return entry.text;
  const who = actorText(d, entry.actor, people);
  const c = entry.change;
  const parts: string[] = [];
  const status = c.status as { from?: string; to?: string } | undefined;
  if (status?.to)
    parts.push(
      d.t("desk.history.status", {
        who,
        from: d.label("desk.status", status.from ?? ""),
        to: d.label("desk.status", status.to),
      }),
    );
  if (typeof c.resolution === "string")
    parts.push(d.t("desk.history.resolution", { resolution: d.label("desk.resolution", c.resolution) }));
  if ("assignee" in c) {
    const to = (c.assignee as { to?: string | null } | string | null) ?? null;
    const raw = typeof to === "object" && to !== null ? (to.to ?? null) : to;
    const id = raw === null ? null : String(raw).replace(/^user:/, "");
    parts.push(
      id === null
        ? d.t("desk.history.unassigned", { who })
        : d.t("desk.history.assigned", {
            who,
            person: people.find((p) => String(p.id) === id)?.displayName ?? id,
          }),
    );
  }
  if (typeof c.note === "string") parts.push(d.t("desk.history.note", { who, note: c.note }));
  if (parts.length === 0) parts.push(d.t("desk.history.other", { who }));
  return parts.join(" ");
}

export function AlertDetail({
  alertId,
  people,
  onChanged,
  onClose,
  onEditing,
}: {
  alertId: string;
  people: Person[];
  onChanged: () => void;
  onClose: () => void;
  onEditing: (on: boolean) => void;
}) {
  const d = useDesk();
  const user = d.session!.user;
  const project = `/v1/projects/${user.projectId}`;
  const loaded = useLoad(() => get<AlertWithHistory>(`${project}/alerts/${alertId}`), [alertId, d.lang]);
  const [to, setTo] = useState<AlertStatus | "">("");
  const [resolution, setResolution] = useState("");
  const [reference, setReference] = useState("");
  const [note, setNote] = useState("");
  const [actionError, setActionError] = useState<unknown>(undefined);
  const [report, setReport] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const officer = atLeast(user.role, "officer");
  const alert = loaded.data;
  if (loaded.error)
    return (
      <aside class="detail">
        <ErrorLine error={loaded.error} />
      </aside>
    );
  if (!alert)
    return (
      <aside class="detail">
        <Loading />
      </aside>
    );

  const act = async (body: Record<string, unknown>) => {
    setBusy(true);
    setActionError(undefined);
    try {
      const updated = await call<AlertWithHistory>("PATCH", `${project}/alerts/${alert.id}`, body);
      loaded.setData(updated);
      setTo("");
      setNote("");
      setResolution("");
      setReference("");
      onEditing(false);
      onChanged();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
    }
  };

  const triage = (event: Event) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    if (to) body.status = to;
    if (to === "closed" && resolution) body.resolution = resolution;
    if (to === "closed" && resolution === "reported" && reference) body.reference = reference;
    if (note.trim()) body.note = note.trim();
    if (Object.keys(body).length > 0) void act(body);
  };

  const openGraph = async () => {
    setActionError(undefined);
    try {
      const created = await call<{ id: string | number }>("POST", `${project}/investigations`, {
        name: d.t("desk.alert.graph_name", { id: alert.id }),
        wallet: alert.subject.address,
        chainId: String(alert.subject.chainId),
        incremental: true,
        maxDepth: 3,
      });
      location.assign(`/app/investigations/${encodeURIComponent(String(created.id))}`);
    } catch (e) {
      setActionError(e);
    }
  };

  const loadReport = async () => {
    setActionError(undefined);
    try {
      setReport(
        await get<string>(
          `/v1/wallets/${encodeURIComponent(alert.subject.address)}/report?chainId=${alert.subject.chainId}&lang=${d.lang}`,
        ),
      );
    } catch (e) {
      setActionError(e);
    }
  };

  const ev = alert.evidence;
  const personMatch = alert.cause === "person_match" || alert.cause === "attempt";
  return (
    <aside
      class="detail"
      id="detail"
      data-alert-id={alert.id}
      data-status={alert.status}
      aria-labelledby="detail-heading"
    >
      <div class="page-head">
        <h2 id="detail-heading">{d.t("desk.alert.heading", { id: alert.id })}</h2>
        <button type="button" class="secondary" id="detail-close" onClick={onClose}>
          {d.t("desk.close")}
        </button>
      </div>
      <p class="reason">{alert.reasonText}</p>
      <Fields
        rows={[
          [d.t("desk.col.level"), <Badge kind="level" value={alert.level} />],
          [d.t("desk.col.cause"), d.label("desk.cause", alert.cause)],
          [d.t("desk.col.status"), <Badge kind="status" value={alert.status} />],
          [
            d.t("desk.col.deadline"),
            alert.deadline ? (
              <span class="deadline-law">
                {d.lawTime(alert.deadline.at, alert.deadline.timeZone ?? "America/Mexico_City")} ·{" "}
                {d.countdown(alert.deadline.at)}
              </span>
            ) : (
              "—"
            ),
          ],
          [d.t("desk.col.client"), alert.subject.userId ?? "—"],
          [d.t("desk.alert.address"), <span class="mono">{short(alert.subject.address)}</span>],
          [d.t("desk.col.created"), d.time(alert.createdAt)],
        ]}
      />
      <nav class="links" aria-label={d.t("desk.alert.links")}>
        {alert.subject.userId && (
          <a href={`/app/cases/${encodeURIComponent(alert.subject.userId)}`} data-internal id="link-case">
            {d.t("desk.alert.to_case")}
          </a>
        )}
        {personMatch && (
          <a href={`/app/matches/${alert.id}`} data-internal id="link-match">
            {d.t("desk.alert.to_match")}
          </a>
        )}
        {officer && alert.subject.userId && (
          <a href={`/app/avisos/new?alert=${alert.id}`} data-internal id="link-aviso">
            {d.t("desk.alert.to_aviso")}
          </a>
        )}
      </nav>
      <div class="actions">
        {atLeast(user.role, "developer") && alert.subject.address && (
          <button type="button" class="secondary" id="open-graph" onClick={openGraph}>
            {d.t("desk.alert.graph")}
          </button>
        )}
        {alert.subject.address && (
          <button type="button" class="secondary" id="wallet-report" onClick={loadReport}>
            {d.t("desk.alert.wallet_report")}
          </button>
        )}
        <button
          type="button"
          class="secondary"
          id="download-md"
          onClick={() =>
            download(
              `${project}/alerts/${alert.id}/evidence?format=md`,
              `alert-${alert.id}-evidence.md`,
            ).catch(setActionError)
          }
        >
          {d.t("desk.alert.evidence_download")}
        </button>
      </div>
      <ErrorLine error={actionError} />

      {officer && alert.transitions.length > 0 && (
        <form
          id="triage"
          class="triage"
          onSubmit={triage}
          onFocusIn={() => onEditing(true)}
          onFocusOut={() => onEditing(note.trim() !== "" || to !== "")}
        >
          <h3>{d.t("desk.triage.heading")}</h3>
          <label>
            {d.t("desk.triage.assignee")}
            <select
              id="assignee"
              value={assigneeId(alert)}
              disabled={busy}
              onChange={(e) =>
                void act({ assignee: e.currentTarget.value ? Number(e.currentTarget.value) : null })
              }
            >
              <option value="">{d.t("desk.triage.nobody")}</option>
              {people
                .filter((p) => !p.disabledAt)
                .map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.displayName}
                  </option>
                ))}
            </select>
          </label>
          <label>
            {d.t("desk.triage.move_to")}
            <select
              id="triage-status"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value as AlertStatus | "")}
            >
              <option value="">{d.t("desk.triage.keep")}</option>
              {alert.transitions.map((s) => (
                <option key={s} value={s}>
                  {d.label("desk.status", s)}
                </option>
              ))}
            </select>
          </label>
          {to === "closed" && (
            <label>
              {d.t("desk.triage.resolution")}
              <select
                id="triage-resolution"
                required
                value={resolution}
                onChange={(e) => setResolution(e.currentTarget.value)}
              >
                <option value="">{d.t("desk.triage.choose")}</option>
                {RESOLUTIONS.map((r) => (
                  <option key={r} value={r}>
                    {d.label("desk.resolution", r)}
                  </option>
                ))}
              </select>
            </label>
          )}
          {to === "closed" && resolution === "reported" && (
            <label>
              {d.t("desk.triage.reference")}
              <input
                id="triage-reference"
                required
                value={reference}
                onInput={(e) => setReference(e.currentTarget.value)}
              />
            </label>
          )}
          <label>
            {d.t("desk.triage.note")}
            <textarea
              id="triage-note"
              rows={3}
              maxLength={4000}
              value={note}
              onInput={(e) => setNote(e.currentTarget.value)}
            />
          </label>
          <button type="submit" id="triage-save" disabled={busy}>
            {d.t("desk.triage.save")}
          </button>
        </form>
      )}
      {!officer && (
        <p class="muted">
          {d.t("desk.alert.assignee", {
            person: alert.assigneeUser?.displayName ?? alert.assignee ?? d.t("desk.triage.nobody"),
          })}
        </p>
      )}

      <section aria-labelledby="evidence-heading">
        <h3 id="evidence-heading">{d.t("desk.evidence.heading")}</h3>
        {ev.laws.length > 0 && (
          <ul class="plain">
            {ev.laws.map((l) => (
              <li key={l.id}>
                <strong>{ruleName(d, l.id, l.name)}</strong> — {l.source}
              </li>
            ))}
          </ul>
        )}
        {(ev.analyses ?? []).length > 0 && (
          <div class="table-wrap">
            <table>
              <caption>{d.t("desk.evidence.analyses")}</caption>
              <thead>
                <tr>
                  <th scope="col">{d.t("desk.col.when")}</th>
                  <th scope="col">{d.t("desk.col.level")}</th>
                  <th scope="col">{d.t("desk.col.score")}</th>
                  <th scope="col">{d.t("desk.col.reason")}</th>
                </tr>
              </thead>
              <tbody>
                {(ev.analyses ?? []).map((a) => (
                  <tr key={a.at}>
                    <td>{d.time(a.at)}</td>
                    <td>
                      <Badge kind="level" value={a.riskLevel} />
                    </td>
                    <td>{d.number(a.riskScore)}</td>
                    <td class="wrap">{a.reasonText}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {ev.transfers.length > 0 && (
          <div class="table-wrap">
            <table>
              <caption>{d.t("desk.evidence.transfers")}</caption>
              <thead>
                <tr>
                  <th scope="col">{d.t("desk.col.when")}</th>
                  <th scope="col">{d.t("desk.col.amount")}</th>
                  <th scope="col">{d.t("desk.col.counterparty")}</th>
                  <th scope="col">{d.t("desk.col.tx")}</th>
                </tr>
              </thead>
              <tbody>
                {ev.transfers.map((t) => (
                  <tr key={t.txHash}>
                    <td>{d.time(t.at)}</td>
                    <td>{d.usd(t.usd)}</td>
                    <td class="mono">{t.counterparty ? short(t.counterparty) : "—"}</td>
                    <td class="mono">{short(t.txHash)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {(ev.operations ?? []).length > 0 && (
          <div class="table-wrap">
            <table>
              <caption>{d.t("desk.evidence.operations")}</caption>
              <thead>
                <tr>
                  <th scope="col">{d.t("desk.col.when")}</th>
                  <th scope="col">{d.t("desk.col.operation")}</th>
                  <th scope="col">{d.t("desk.col.amount")}</th>
                  <th scope="col">{d.t("desk.col.counterparty")}</th>
                  <th scope="col">{d.t("desk.col.reference")}</th>
                </tr>
              </thead>
              <tbody>
                {(ev.operations ?? []).map((o) => (
                  <tr key={o.operationId}>
                    <td>{d.time(o.at)}</td>
                    <td>{d.label("desk.operation", o.kind)}</td>
                    <td>
                      {o.unit} {o.amount}
                      {o.usd !== null && o.unit !== "USD" ? ` (${d.usd(o.usd)})` : ""}
                    </td>
                    <td class={o.address ? "mono" : undefined}>
                      {o.counterparty ?? (o.address ? short(o.address) : "—")}
                      {o.account ? ` · ${o.account}` : ""}
                    </td>
                    <td class="mono">{o.reference ?? o.operationId}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {(ev.persons ?? []).length > 0 && (
          <ul class="plain">
            {(ev.persons ?? []).map((p) => (
              <li key={`${p.list}${p.matchedName}${p.subject}`}>
                {d.t("desk.evidence.person", {
                  subject: p.subject,
                  name: p.matchedName,
                  list: d.label("desk.list", p.list),
                  score: Math.round(p.score * 100),
                })}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="history-heading">
        <h3 id="history-heading">{d.t("desk.history.heading")}</h3>
        <ol id="history" class="timeline">
          {alert.history.map((h, i) => (
            <li key={`${h.at}${i}`}>
              <time dateTime={h.at}>{d.time(h.at)}</time> {historyText(d, h, people)}
            </li>
          ))}
        </ol>
      </section>

      {report !== null && (
        <section aria-labelledby="report-heading">
          <h3 id="report-heading">{d.t("desk.alert.wallet_report")}</h3>
          {/* markdown-it with raw HTML off and only http(s) links: safe to place as HTML */}
          <div
            class="markdown"
            id="wallet-report-body"
            dangerouslySetInnerHTML={{ __html: renderMarkdown(report) }}
          />
        </section>
      )}
    </aside>
  );
}
