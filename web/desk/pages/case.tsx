// Caso (/app/cases/:clientId): everything about one client on one page: the profile, the alerts grouped (one
// transfer's alerts together), the addresses with their current risk, the screening results, the avisos and
// filings, and the timeline in words. Without a client, a field to open one.
import { useState } from "preact/hooks";
import { get } from "../api.ts";
import { useDesk } from "../i18n.ts";
import { navigate } from "../router.ts";
import type { Alert, ClientCase } from "../types.ts";
import { Badge, ErrorLine, Loading, short, useLoad } from "../ui.tsx";

function OpenCase() {
  const d = useDesk();
  const [client, setClient] = useState("");
  return (
    <section aria-labelledby="case-heading">
      <h1 id="case-heading">{d.t("desk.case.open_heading")}</h1>
      <form
        id="case-open"
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (client.trim()) navigate(`/app/cases/${encodeURIComponent(client.trim())}`);
        }}
      >
        <label>
          {d.t("desk.filter.client")}
          <input id="case-client" required value={client} onInput={(e) => setClient(e.currentTarget.value)} />
        </label>
        <button type="submit">{d.t("desk.case.open")}</button>
      </form>
    </section>
  );
}

const alertGroups = (c: ClientCase): Alert[][] => {
  const raw = c.alerts ?? [];
  if (raw.length === 0) return [];
  if ("alerts" in (raw[0] as object)) return (raw as { alerts: Alert[] }[]).map((g) => g.alerts);
  // A flat list: grouped here by their links.
  const flat = raw as Alert[];
  const seen = new Set<string>();
  const groups: Alert[][] = [];
  for (const a of flat) {
    if (seen.has(a.id)) continue;
    const group = [
      a,
      ...flat.filter((b) => b.id !== a.id && !seen.has(b.id) && (a.linkedAlertIds ?? []).includes(b.id)),
    ];
    for (const g of group) seen.add(g.id);
    groups.push(group);
  }
  return groups;
};

const text = (v: unknown): string =>
  v === null || v === undefined
    ? "—"
    : Array.isArray(v)
      ? v.map(text).join(", ")
      : typeof v === "object"
        ? JSON.stringify(v)
        : String(v);

export function CasePage({ clientId }: { clientId: string }) {
  const d = useDesk();
  const user = d.session!.user;
  const loaded = useLoad(
    () =>
      clientId
        ? get<ClientCase>(`/v1/projects/${user.projectId}/clients/${encodeURIComponent(clientId)}/case`)
        : Promise.resolve(undefined),
    [clientId, d.lang],
  );
  if (!clientId) return <OpenCase />;
  const c = loaded.data;
  return (
    <article aria-labelledby="case-heading" id="case" data-status={c ? "ready" : "loading"}>
      <h1 id="case-heading">{d.t("desk.case.heading", { client: clientId })}</h1>
      <ErrorLine error={loaded.error} />
      {!c && !loaded.error && <Loading />}
      {c && (
        <div class="case-grid">
          <section aria-labelledby="profile-heading">
            <h2 id="profile-heading">{d.t("desk.case.profile")}</h2>
            {c.profile ? (
              <dl class="fields">
                {Object.entries(c.profile)
                  .filter(([, v]) => v !== null && v !== undefined && v !== "")
                  .map(([k, v]) => (
                    <div key={k}>
                      <dt>{d.label("desk.profile", k)}</dt>
                      <dd>{text(v)}</dd>
                    </div>
                  ))}
              </dl>
            ) : (
              <p class="muted">{d.t("desk.case.no_profile")}</p>
            )}
          </section>
          <section aria-labelledby="case-alerts-heading">
            <h2 id="case-alerts-heading">{d.t("desk.case.alerts")}</h2>
            {alertGroups(c).length === 0 && <p class="muted">{d.t("desk.case.none")}</p>}
            {alertGroups(c).map((group) => (
              <ul class="alert-group plain" key={group[0]?.id} data-group-size={group.length}>
                {group.map((a) => (
                  <li key={a.id}>
                    <a href={`/app?alert=${a.id}`} data-internal>
                      {d.t("desk.alert.heading", { id: a.id })}
                    </a>{" "}
                    <Badge kind="level" value={a.level} /> {d.label("desk.cause", a.cause)}{" "}
                    <Badge kind="status" value={a.status} />
                    {a.deadline && (
                      <span class={a.deadline.overdue ? "overdue" : "due"}>
                        {" "}
                        · {d.countdown(a.deadline.at)}
                      </span>
                    )}
                  </li>
                ))}
                {group.length > 1 && (
                  <li class="muted">{d.t("desk.case.linked_group", { count: group.length })}</li>
                )}
              </ul>
            ))}
          </section>
          <section aria-labelledby="case-addresses-heading">
            <h2 id="case-addresses-heading">{d.t("desk.case.addresses")}</h2>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">{d.t("desk.alert.address")}</th>
                    <th scope="col">{d.t("desk.col.level")}</th>
                    <th scope="col">{d.t("desk.col.score")}</th>
                  </tr>
                </thead>
                <tbody>
                  {(c.addresses ?? []).map((a) => (
                    <tr key={`${a.chainId}:${a.address}`}>
                      <td class="mono">{short(a.address)}</td>
                      <td>{a.riskLevel ? <Badge kind="level" value={a.riskLevel} /> : "—"}</td>
                      <td>
                        {a.riskScore === null || a.riskScore === undefined ? "—" : d.number(a.riskScore)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <section aria-labelledby="case-screening-heading">
            <h2 id="case-screening-heading">{d.t("desk.case.screening")}</h2>
            {(c.screening ?? []).length === 0 && <p class="muted">{d.t("desk.case.none")}</p>}
            <ul class="plain">
              {(c.screening ?? []).map((s, i) => (
                <li key={`${s.list}${i}`}>
                  <Badge kind="verdict" value={s.verdict} /> {s.matchedName ?? s.name ?? ""} · {s.list}
                  {s.score !== undefined ? ` · ${d.number(s.score * 100)}/100` : ""}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="case-avisos-heading">
            <h2 id="case-avisos-heading">{d.t("desk.case.avisos")}</h2>
            {(c.avisos ?? []).length + (c.filings ?? []).length === 0 && (
              <p class="muted">{d.t("desk.case.none")}</p>
            )}
            <ul class="plain">
              {(c.avisos ?? []).map((a) => (
                <li key={a.id}>
                  {d.t("desk.case.aviso", { reference: a.reference, basis: d.label("desk.basis", a.basis) })}{" "}
                  · {d.label("desk.state", a.state)} · {d.countdown(a.deadline)}
                </li>
              ))}
              {(c.filings ?? []).map((f) => (
                <li key={`${f.filing}${f.period}`}>
                  {f.filing} · {f.period} · {d.label("desk.state", f.state)}
                  {f.folio ? ` · ${d.t("desk.reports.folio_value", { folio: f.folio })}` : ""}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="case-timeline-heading" class="span-2">
            <h2 id="case-timeline-heading">{d.t("desk.case.timeline")}</h2>
            <ol class="timeline" id="case-timeline">
              {c.timeline.map((e, i) => (
                <li key={`${e.at}${i}`}>
                  <time dateTime={e.at}>{d.time(e.at)}</time> {e.text}
                </li>
              ))}
            </ol>
          </section>
        </div>
      )}
    </article>
  );
}
