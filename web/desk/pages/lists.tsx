// Listas y cribado (/app/lists): the lists of persons screened against, with their versions and how old they
// are; screening a name now (with a birthdate and nationality to rule out namesakes); and screening one client, or
// every client of the project, again now (officer and up): the workers screen it within seconds and a match shows
// in the client's case and the inbox.
import { useState } from "preact/hooks";
import { call, get } from "../api.ts";
import { useDesk } from "../i18n.ts";
import { atLeast, type ListVersion, type ScreenResult } from "../types.ts";
import { Badge, ErrorLine, Loading, useLoad } from "../ui.tsx";

export function ListsPage() {
  const d = useDesk();
  const user = d.session!.user;
  const officer = atLeast(user.role, "officer");
  const lists = useLoad(() => get<{ lists: ListVersion[] }>("/v1/screening/lists"), []);
  const [name, setName] = useState("");
  const [birthdate, setBirthdate] = useState("");
  const [nationality, setNationality] = useState("");
  const [result, setResult] = useState<ScreenResult | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [queued, setQueued] = useState<number | null>(null);
  const [clientId, setClientId] = useState("");
  const [clientQueued, setClientQueued] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const screen = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const person = {
        name: name.trim(),
        ...(birthdate ? { birthdate } : {}),
        ...(nationality.trim() ? { nationality: nationality.trim().toUpperCase() } : {}),
      };
      const answer = await call<{ results: ScreenResult[] }>("POST", "/v1/screening/persons", {
        persons: [person],
      });
      setResult(answer.results[0] ?? null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const runClient = async (event: Event) => {
    event.preventDefault();
    const id = clientId.trim();
    setBusy(true);
    setError(undefined);
    setClientQueued(null);
    try {
      await call("POST", `/v1/projects/${user.projectId}/screening/run`, { userId: id });
      setClientQueued(id);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const runAll = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setQueued(
        (await call<{ queued: number }>("POST", `/v1/projects/${user.projectId}/screening/run`, {})).queued,
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <h1>{d.t("desk.lists.heading")}</h1>
      <section aria-labelledby="lists-heading">
        <h2 id="lists-heading">{d.t("desk.lists.lists")}</h2>
        <ErrorLine error={lists.error} />
        {!lists.data && !lists.error && <Loading />}
        {lists.data && (
          <div class="table-wrap">
            <table id="lists">
              <thead>
                <tr>
                  <th scope="col">{d.t("desk.lists.list")}</th>
                  <th scope="col">{d.t("desk.lists.version")}</th>
                  <th scope="col">{d.t("desk.lists.list_date")}</th>
                  <th scope="col">{d.t("desk.lists.entries")}</th>
                  <th scope="col">{d.t("desk.lists.imported")}</th>
                </tr>
              </thead>
              <tbody>
                {lists.data.lists.map((l) => (
                  <tr key={l.kind}>
                    <td>{d.label("desk.list", l.kind)}</td>
                    <td class="mono">{l.version}</td>
                    <td>{d.day(l.listDate)}</td>
                    <td>{d.number(l.entries)}</td>
                    <td>
                      {d.time(l.importedAt)} ({d.countdown(l.importedAt)})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {lists.data.lists.length === 0 && <p class="muted">{d.t("desk.lists.none")}</p>}
          </div>
        )}
      </section>
      {atLeast(user.role, "developer") && (
        <section aria-labelledby="screen-heading">
          <h2 id="screen-heading">{d.t("desk.lists.screen_name")}</h2>
          <form id="screen-form" class="inline-form" onSubmit={screen}>
            <label>
              {d.t("desk.lists.name")}
              <input
                id="screen-name"
                required
                maxLength={300}
                value={name}
                onInput={(e) => setName(e.currentTarget.value)}
              />
            </label>
            <label>
              {d.t("desk.lists.birthdate")}
              <input
                id="screen-birthdate"
                type="date"
                value={birthdate}
                onInput={(e) => setBirthdate(e.currentTarget.value)}
              />
            </label>
            <label>
              {d.t("desk.lists.nationality")}
              <input
                id="screen-nationality"
                maxLength={2}
                pattern="[A-Za-z]{2}"
                size={3}
                value={nationality}
                onInput={(e) => setNationality(e.currentTarget.value)}
              />
            </label>
            <button type="submit" id="screen-submit" disabled={busy}>
              {d.t("desk.lists.screen")}
            </button>
          </form>
          <ErrorLine error={error} />
          {result && (
            <div id="screen-result" data-verdict={result.verdict}>
              <p>
                {d.t("desk.lists.verdict", { name: result.name })}{" "}
                <Badge kind="verdict" value={result.verdict} />
              </p>
              {result.candidates.length > 0 && (
                <div class="table-wrap">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{d.t("desk.lists.candidate")}</th>
                        <th scope="col">{d.t("desk.lists.list")}</th>
                        <th scope="col">{d.t("desk.col.score")}</th>
                        <th scope="col">{d.t("desk.lists.programme")}</th>
                        <th scope="col">{d.t("desk.lists.verdict_col")}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {result.candidates.map((c) => (
                        <tr key={`${c.list}${c.entryId}`}>
                          <td class="wrap">{c.matchedName}</td>
                          <td>
                            {d.label("desk.list", c.list)} · {c.listVersion}
                          </td>
                          <td>{d.number(c.score * 100)}/100</td>
                          <td>{c.entry.programs.join(", ") || "—"}</td>
                          <td>
                            <Badge kind="verdict" value={c.verdict} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </div>
          )}
        </section>
      )}
      {officer && (
        <section aria-labelledby="client-run-heading">
          <h2 id="client-run-heading">{d.t("desk.lists.client_heading")}</h2>
          <form id="screen-client-form" onSubmit={runClient}>
            <label>
              {d.t("desk.lists.client_id")}
              <input
                id="screen-client-id"
                required
                maxLength={255}
                value={clientId}
                onInput={(e) => setClientId(e.currentTarget.value)}
              />
            </label>
            <button type="submit" id="screen-client" disabled={busy}>
              {d.t("desk.lists.client_run")}
            </button>
          </form>
          {clientQueued !== null && (
            <p role="status" class="notice" id="screen-client-result">
              {d.t("desk.lists.client_queued", { userId: clientQueued })}{" "}
              <a href={`/app/cases/${encodeURIComponent(clientQueued)}`}>{d.t("desk.lists.client_case")}</a>
            </p>
          )}
        </section>
      )}
      {officer && (
        <section aria-labelledby="run-heading">
          <h2 id="run-heading">{d.t("desk.lists.run_heading")}</h2>
          <p class="muted">{d.t("desk.lists.run_hint")}</p>
          <button type="button" id="screen-run" disabled={busy} onClick={runAll}>
            {d.t("desk.lists.run")}
          </button>
          {queued !== null && (
            <p role="status" class="notice" id="screen-run-result">
              {d.t("desk.lists.queued", { count: queued })}
            </p>
          )}
        </section>
      )}
    </div>
  );
}
