// Revisión de coincidencia (/app/matches/:alertId): her client and the list entry side by side (names, dates,
// nationality, identifiers, programme, list and version), the score and why, and her decision (officer and up):
// confirm or discard, with a reason. A discarded pair does not alert again until the entry or the profile changes.
import { useState } from "preact/hooks";
import { call, get } from "../api.ts";
import { type Desk, useDesk } from "../i18n.ts";
import { atLeast, type Identifier, type MatchReview } from "../types.ts";
import { ErrorLine, Loading, useLoad } from "../ui.tsx";

const joined = (values: (string | null | undefined)[]) => values.filter(Boolean).join("; ") || "—";

function identifiers(d: Desk, ids: Identifier[]): string {
  return joined(
    ids.map((i) => `${d.label("desk.identifier", i.kind)} ${i.value}${i.country ? ` (${i.country})` : ""}`),
  );
}

/** The rows of the side-by-side: [what, her client, the list entry]. */
function rows(d: Desk, m: MatchReview): [string, string, string][] {
  const c = m.client;
  const e = m.entry;
  return [
    [d.t("desk.case.role"), c.roleText, "—"],
    [d.t("desk.match.names"), joined([...c.names, c.nameAsRead]), joined(e.names)],
    [
      d.t("desk.match.birth"),
      joined([c.birthDate, c.incorporationDate].map((x) => (x ? d.day(x) : null))),
      joined(e.birthDates.map((x) => (/^\d{4}-\d{2}-\d{2}$/.test(x) ? d.day(x) : x))),
    ],
    [
      d.t("desk.match.nationality"),
      c.nationality ?? "—",
      joined([e.nationality, ...e.nationalities.filter((n) => n !== e.nationality)]),
    ],
    [d.t("desk.match.identifiers"), identifiers(d, c.identifiers), identifiers(d, e.identifiers)],
    [d.t("desk.match.programme"), "—", e.programme ?? "—"],
    [
      d.t("desk.match.list"),
      "—",
      `${d.label("desk.list", e.list)} · ${e.listVersion} · ${d.t("desk.match.entry_id", { id: e.entryId })}`,
    ],
    [d.t("desk.match.remarks"), "—", e.remarks ?? "—"],
  ];
}

export function MatchPage({ alertId }: { alertId: string }) {
  const d = useDesk();
  const user = d.session!.user;
  const path = `/v1/projects/${user.projectId}/alerts/${encodeURIComponent(alertId)}/match`;
  const loaded = useLoad(() => get<MatchReview>(path), [path, d.lang]);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const m = loaded.data;

  const decide = async (decision: "confirm" | "discard") => {
    if (!reason.trim()) {
      setError(new Error(d.t("desk.match.reason_needed")));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await call("POST", `${path}/review`, { decision, reason: reason.trim() });
      setReason("");
      loaded.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const table = m ? rows(d, m) : [];
  return (
    <article
      aria-labelledby="match-heading"
      id="match"
      data-status={m ? (m.review ? `reviewed-${m.review.decision}` : "pending") : "loading"}
    >
      <h1 id="match-heading">{d.t("desk.match.heading", { id: alertId })}</h1>
      <p>
        <a href={`/app?alert=${alertId}`} data-internal>
          {d.t("desk.match.back")}
        </a>
      </p>
      <ErrorLine error={loaded.error} />
      {!m && !loaded.error && <Loading />}
      {m && (
        <>
          <div class="table-wrap">
            <table class="side-by-side">
              <thead>
                <tr>
                  <th scope="col">
                    <span class="sr-only">{d.t("desk.match.field")}</span>
                  </th>
                  <th scope="col">{d.t("desk.match.client")}</th>
                  <th scope="col">{d.t("desk.match.entry")}</th>
                </tr>
              </thead>
              <tbody>
                {table.map(([label, client, entry]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    <td class="wrap">{client}</td>
                    <td class="wrap">{entry}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p id="match-score">
            <strong>
              {d.t("desk.match.score", { score: Math.round(m.score * (m.score <= 1 ? 100 : 1)) })}
            </strong>
          </p>
          <h2>{d.t("desk.match.why")}</h2>
          <ul class="plain" id="match-why">
            {m.why.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          {m.earlierReview && (
            <p class="notice" id="match-earlier">
              {m.earlierReview.text}
            </p>
          )}
          {m.client.profileChanged && <p class="muted">{d.t("desk.match.profile_changed")}</p>}
          {m.review && (
            <p id="match-review" class="notice">
              {d.t(m.review.decision === "confirm" ? "desk.match.confirmed" : "desk.match.discarded", {
                by: m.review.byName,
                at: d.time(m.review.at),
                reason: m.review.reason,
              })}
            </p>
          )}
          {atLeast(user.role, "officer") && (
            <form id="match-form" onSubmit={(e) => e.preventDefault()}>
              <label>
                {d.t("desk.match.reason")}
                <textarea
                  id="match-reason"
                  rows={3}
                  maxLength={2000}
                  required
                  value={reason}
                  onInput={(e) => setReason(e.currentTarget.value)}
                />
              </label>
              <ErrorLine error={error} />
              <div class="actions">
                <button type="button" id="match-confirm" disabled={busy} onClick={() => decide("confirm")}>
                  {d.t("desk.match.confirm")}
                </button>
                <button
                  type="button"
                  id="match-discard"
                  class="secondary"
                  disabled={busy}
                  onClick={() => decide("discard")}
                >
                  {d.t("desk.match.discard")}
                </button>
              </div>
            </form>
          )}
        </>
      )}
    </article>
  );
}
