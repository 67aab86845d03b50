// Caso (/app/cases/:clientId): everything about one client on one page: the persons of its profile, its alerts in
// groups (one transfer's alerts, or one list entry's, together), its addresses with their current risk, its
// screening, its avisos and files, and the timeline in words. Without a client, a field to open one.
import { useState } from "preact/hooks";
import { get } from "../api.ts";
import { type Desk, useDesk } from "../i18n.ts";
import { navigate } from "../router.ts";
import { atLeast, type CasePerson, type ClientCase } from "../types.ts";
import { Badge, ErrorLine, Fields, Loading, short, useLoad } from "../ui.tsx";

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

const join = (values: (string | undefined)[]) => values.filter(Boolean).join("; ") || "—";

function PersonFields({ person }: { person: CasePerson }) {
  const d = useDesk();
  const p = person.person ?? person;
  return (
    <Fields
      rows={[
        [d.t("desk.case.role"), d.label("desk.subject", person.role ?? p.role ?? "client")],
        [d.t("desk.match.names"), join([p.name, ...(p.names ?? [])])],
        [
          d.t("desk.match.birth"),
          join([p.birthdate, ...(p.dates ?? [])].map((x) => (x ? d.day(x) : undefined))),
        ],
        [d.t("desk.match.nationality"), p.nationality ?? "—"],
        [
          d.t("desk.match.identifiers"),
          join(
            (p.identifiers ?? []).map((i) =>
              [i.kind ? d.label("desk.identifier", i.kind) : "", i.value].join(" ").trim(),
            ),
          ),
        ],
      ]}
    />
  );
}

const score = (d: Desk, s: number | undefined) =>
  s === undefined ? "" : ` · ${d.number(s <= 1 ? s * 100 : s)}/100`;

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
      {atLeast(user.role, "officer") && (
        <p>
          <a
            class="button secondary"
            id="case-aviso"
            data-internal
            href={`/app/avisos/new?client=${encodeURIComponent(clientId)}`}
          >
            {d.t("desk.case.raise_aviso")}
          </a>
        </p>
      )}
      <ErrorLine error={loaded.error} />
      {!c && !loaded.error && <Loading />}
      {c && (
        <div class="case-grid">
          <section aria-labelledby="profile-heading">
            <h2 id="profile-heading">{d.t("desk.case.profile")}</h2>
            {c.profile ? (
              <>
                <p class="muted">{d.t("desk.case.profile_read", { at: d.time(c.profile.readAt) })}</p>
                {c.profile.persons.map((p, i) => (
                  <PersonFields key={i} person={p} />
                ))}
              </>
            ) : (
              <p class="muted">{d.t("desk.case.no_profile")}</p>
            )}
          </section>
          <section aria-labelledby="case-alerts-heading">
            <h2 id="case-alerts-heading">{d.t("desk.case.alerts")}</h2>
            <p class="muted">
              {d.t("desk.case.alert_count", { total: c.alerts.total, overdue: c.alerts.overdue })}
            </p>
            {c.alerts.groups.map((group) => (
              <ul class="alert-group plain" key={group.alertIds.join()} data-group-size={group.alerts.length}>
                {group.alerts.map((a) => (
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
                {group.alerts.length > 1 && (
                  <li class="muted">{d.t("desk.case.linked_group", { count: group.alerts.length })}</li>
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
                    <th scope="col">{d.t("desk.col.when")}</th>
                  </tr>
                </thead>
                <tbody>
                  {c.addresses.map((a) => (
                    <tr key={a.id}>
                      <td class="mono">{short(a.address)}</td>
                      <td>
                        {a.risk?.level ? (
                          <Badge kind="level" value={a.risk.level} />
                        ) : (
                          d.t("desk.case.not_analysed")
                        )}
                      </td>
                      <td>
                        {a.risk?.score === null || a.risk?.score === undefined ? "—" : d.number(a.risk.score)}
                      </td>
                      <td>{a.risk ? d.time(a.risk.at) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <section aria-labelledby="case-screening-heading">
            <h2 id="case-screening-heading">{d.t("desk.case.screening")}</h2>
            {c.screening ? (
              <>
                <p>
                  <Badge kind="verdict" value={c.screening.verdict} /> {d.time(c.screening.screenedAt)}
                </p>
                <ul class="plain">
                  {c.screening.candidates.map((s, i) => (
                    <li key={i}>
                      {s.verdict && <Badge kind="verdict" value={s.verdict} />} {s.matchedName ?? ""}
                      {s.list ? ` · ${d.label("desk.list", s.list)}` : ""}
                      {score(d, s.score)}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p class="muted">{d.t("desk.case.not_screened")}</p>
            )}
          </section>
          <section aria-labelledby="case-avisos-heading">
            <h2 id="case-avisos-heading">{d.t("desk.case.avisos")}</h2>
            {c.avisos.length + c.filings.length === 0 && <p class="muted">{d.t("desk.case.none")}</p>}
            <ul class="plain">
              {c.avisos.map((a) => (
                <li key={a.id}>
                  {d.t("desk.case.aviso", { reference: a.reference, basis: d.label("desk.basis", a.basis) })}{" "}
                  ·{" "}
                  {a.settledAt
                    ? d.t("desk.case.aviso_written", { at: d.time(a.settledAt) })
                    : d.countdown(a.deadline)}
                </li>
              ))}
              {c.filings.map((f) => (
                <li key={f.path}>
                  <span class="mono">{f.name}</span> · {d.month(f.period)} · {d.label("desk.state", f.status)}
                  {f.folio ? ` ${d.t("desk.reports.folio_value", { folio: f.folio })}` : ""}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="case-timeline-heading" class="span-2">
            <h2 id="case-timeline-heading">{d.t("desk.case.timeline")}</h2>
            <ol class="timeline" id="case-timeline">
              {c.timeline.map((e, i) => (
                <li key={i}>
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
