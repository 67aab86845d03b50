// Reportes y calendario (/app/reports): the month's files of a jurisdiction (generate, download, mark filed with
// the folio) and what is due in the coming weeks. Deadlines are shown as the law states them, in the
// jurisdiction's zone (Mexico's monthly file: the 17th at 23:59 in Mexico City), with a countdown.
import { useState } from "preact/hooks";
import { call, get, q } from "../api.ts";
import { type Desk, useDesk } from "../i18n.ts";
import { atLeast, type Filing, type Report } from "../types.ts";
import { Badge, ErrorLine, Loading, useLoad } from "../ui.tsx";

/** The jurisdictions Vigía writes files for (src/jurisdictions). */
const COUNTRIES = ["MX", "CO", "GT", "SV"] as const;
// Eight weeks: the month under way's filings are always in view, on its first day too (a monthly file falls due up
// to the 20th of the next month: at most 51 days away). With six, a new project's first filing was out of view for
// the first days of each month, and the page showed nothing coming.
const WEEKS_AHEAD = 8;

/** Each jurisdiction's zone, where its months begin and end (src/jurisdictions). */
const ZONES: Record<(typeof COUNTRIES)[number], string> = {
  MX: "America/Mexico_City",
  CO: "America/Bogota",
  GT: "America/Guatemala",
  SV: "America/El_Salvador",
};

/** The last month that has closed in Mexico's zone (the page opens on Mexico): the one a file can be made of. */
const lastMonth = () => {
  const [year, month] = new Intl.DateTimeFormat("en-CA", {
    timeZone: ZONES.MX,
    year: "numeric",
    month: "2-digit",
  })
    .format(new Date())
    .split("-")
    .map(Number);
  return new Date(Date.UTC(year as number, (month as number) - 2, 1)).toISOString().slice(0, 7);
};
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A filing in her language: by its id in the catalog, a 24-hour aviso by its file; else as the service names it. */
function filingName(d: Desk, f: Filing): string {
  const [id = "", stem] = f.filing.split(":");
  if (stem && id.endsWith("-URGENT")) return d.t("desk.filing.urgent", { stem });
  const named = d.label("desk.filing", id);
  return named === id ? f.name : named;
}

const FAILURES = ["no_value", "pending", "invalid_file", "profile_unreadable", "unknown_basis"] as const;

/** Why a file could not be written, in her language by its code; the stored English reason where none fits. */
function failureText(d: Desk, r: Report): string {
  const code = FAILURES.find((c) => c === r.code);
  if (code === undefined) return r.reason ?? "";
  return d.t(`desk.reports.failure.${code}`, { field: r.field ?? "none" });
}

function FilingRow({ f }: { f: Filing }) {
  const d = useDesk();
  return (
    <tr data-filing={f.filing} data-state={f.state}>
      <td class="wrap" title={f.source}>
        {filingName(d, f)}
      </td>
      <td>{f.countryCode}</td>
      <td>{d.month(f.period)}</td>
      <td class="deadline-law">{d.lawTime(f.deadline, f.timeZone)}</td>
      <td class={f.state === "overdue" ? "overdue" : "due"}>
        {f.state === "filed" ? "—" : d.countdown(f.deadline)}
      </td>
      <td>
        <Badge kind="state" value={f.state} />
        {f.folio ? ` ${d.t("desk.reports.folio_value", { folio: f.folio })}` : ""}
      </td>
    </tr>
  );
}

function FilingTable({ id, filings, caption }: { id: string; filings: Filing[]; caption: string }) {
  // The caption names the table for a screen reader; the section's heading already says it on screen.
  const d = useDesk();
  return (
    <div class="table-wrap">
      <table id={id}>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{d.t("desk.reports.filing")}</th>
            <th scope="col">{d.t("desk.reports.country")}</th>
            <th scope="col">{d.t("desk.reports.period")}</th>
            <th scope="col">{d.t("desk.reports.deadline")}</th>
            <th scope="col">{d.t("desk.reports.countdown")}</th>
            <th scope="col">{d.t("desk.reports.state")}</th>
          </tr>
        </thead>
        <tbody>
          {filings.map((f) => (
            <FilingRow key={`${f.filing}${f.period}`} f={f} />
          ))}
        </tbody>
      </table>
      {filings.length === 0 && <p class="muted">{d.t("desk.reports.nothing_due")}</p>}
    </div>
  );
}

export function ReportsPage() {
  const d = useDesk();
  const user = d.session!.user;
  const projectId = user.projectId;
  const officer = atLeast(user.role, "officer");
  const [country, setCountry] = useState<string>("MX");
  const [period, setPeriod] = useState(lastMonth);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState("");
  const [folios, setFolios] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const coming = useLoad(
    () =>
      get<Filing[]>(
        `/v1/reports/calendar${q({ projectId, from: isoDay(Date.now() - 86_400_000), to: isoDay(Date.now() + WEEKS_AHEAD * 7 * 86_400_000) })}`,
      ),
    [],
  );
  const month = useLoad(
    () => get<Filing[]>(`/v1/reports/calendar${q({ projectId, period, countryCode: country })}`),
    [period, country],
  );
  const files = useLoad(
    () => get<Report[]>(`/v1/reports${q({ projectId, period, countryCode: country, limit: 100 })}`),
    [period, country],
  );

  const reloadAll = () => {
    files.reload();
    month.reload();
    coming.reload();
  };
  const run = async (what: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setNotice("");
    try {
      setNotice(await what());
      reloadAll();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const generate = () =>
    run(async () => {
      const g = await call<{ files: unknown[]; problems: unknown[] }>("POST", "/v1/reports/generate", {
        projectId,
        period,
        countryCode: country,
      });
      return d.t("desk.reports.generated", { files: g.files.length, problems: g.problems.length });
    });
  const openFile = (r: Report) =>
    run(async () => {
      // A signed URL of the service (its own origin): downloaded as a file, the page stays.
      const link = await get<{ signedUrl: string; name: string }>(`/v1/reports/${encodeURIComponent(r.id)}`);
      const anchor = document.createElement("a");
      anchor.href = link.signedUrl;
      anchor.download = link.name;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      return d.t("desk.reports.downloaded", { name: link.name });
    });
  const markFiled = (r: Report) =>
    run(async () => {
      const folio = folios[r.id]?.trim();
      await call("POST", `/v1/reports/${encodeURIComponent(r.id)}/filed`, folio ? { folio } : {});
      return d.t("desk.reports.marked", { name: r.name });
    });

  return (
    <div>
      <h1>{d.t("desk.reports.heading")}</h1>
      <section aria-labelledby="coming-heading">
        <h2 id="coming-heading">{d.t("desk.reports.coming", { weeks: WEEKS_AHEAD })}</h2>
        <ErrorLine error={coming.error} />
        {coming.data ? (
          <FilingTable
            id="coming"
            filings={coming.data}
            caption={d.t("desk.reports.coming", { weeks: WEEKS_AHEAD })}
          />
        ) : (
          !coming.error && <Loading />
        )}
      </section>
      <section aria-labelledby="month-heading">
        <h2 id="month-heading">{d.t("desk.reports.month")}</h2>
        <form class="inline-form" id="month-form" onSubmit={(e) => e.preventDefault()}>
          <label>
            {d.t("desk.reports.country")}
            <select id="report-country" value={country} onChange={(e) => setCountry(e.currentTarget.value)}>
              {COUNTRIES.map((c) => (
                <option key={c} value={c}>
                  {new Intl.DisplayNames([d.lang === "es" ? "es-MX" : "en-US"], { type: "region" }).of(c) ??
                    c}
                </option>
              ))}
            </select>
          </label>
          <label>
            {d.t("desk.reports.period")}
            <input
              id="report-period"
              type="month"
              required
              value={period}
              onChange={(e) => e.currentTarget.value && setPeriod(e.currentTarget.value)}
            />
          </label>
          {officer && (
            <button type="button" id="report-generate" disabled={busy} onClick={generate}>
              {d.t("desk.reports.generate")}
            </button>
          )}
        </form>
        <ErrorLine error={error} />
        {notice && (
          <p class="notice" role="status" id="report-notice">
            {notice}
          </p>
        )}
        <ErrorLine error={month.error} />
        {month.data && (
          <FilingTable
            id="month-calendar"
            filings={month.data}
            caption={d.t("desk.reports.month_calendar", { period: d.month(period) })}
          />
        )}
        <ErrorLine error={files.error} />
        {files.data && (
          <div class="table-wrap">
            <table id="report-files" data-count={files.data.length}>
              <caption>{d.t("desk.reports.files")}</caption>
              <thead>
                <tr>
                  <th scope="col">{d.t("desk.reports.file")}</th>
                  <th scope="col">{d.t("desk.reports.kind")}</th>
                  <th scope="col">{d.t("desk.reports.version")}</th>
                  <th scope="col">{d.t("desk.reports.state")}</th>
                  <th scope="col">{d.t("desk.col.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {files.data.map((r) => (
                  <tr key={r.id} data-report={r.name} data-status={r.status}>
                    <td class="mono">{r.name}</td>
                    <td>{d.label("desk.reports.kind", r.kind)}</td>
                    <td>{d.number(r.version)}</td>
                    <td>
                      <Badge kind="state" value={r.status} />
                      {r.folio ? ` ${d.t("desk.reports.folio_value", { folio: r.folio })}` : ""}
                      {r.reason ? (
                        <span class="wrap failure" title={r.reason}>
                          {" "}
                          {failureText(d, r)}
                        </span>
                      ) : null}
                    </td>
                    <td class="row-actions">
                      {r.status !== "failed" && (
                        <button
                          type="button"
                          class="secondary download"
                          disabled={busy}
                          onClick={() => openFile(r)}
                        >
                          {d.t("desk.reports.download")}
                        </button>
                      )}
                      {officer && r.status === "draft" && (
                        <form
                          class="inline-form file-form"
                          onSubmit={(e) => {
                            e.preventDefault();
                            void markFiled(r);
                          }}
                        >
                          <label>
                            {d.t("desk.reports.folio")}
                            <input
                              class="folio"
                              pattern="[2-9][0-9]{3}-[1-9][0-9]{0,8}"
                              placeholder={d.t("desk.reports.folio_example")}
                              value={folios[r.id] ?? ""}
                              onInput={(e) => setFolios({ ...folios, [r.id]: e.currentTarget.value })}
                            />
                          </label>
                          <button type="submit" class="mark-filed" disabled={busy}>
                            {d.t("desk.reports.mark_filed")}
                          </button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {files.data.length === 0 && <p class="muted">{d.t("desk.reports.no_files")}</p>}
          </div>
        )}
      </section>
    </div>
  );
}
