// Bandeja (/app): every alert of the project, 25 a page with the total, overdue first, refreshing itself every
// 30 s (not while she is typing in a form, and never losing her filters or page: they live in the address).
// Filters by state, level, cause, assignee, client and deadline; one transfer's linked alerts shown together.
// An alert opens beside the list (?alert=ID) with its evidence, history and actions.
import { useEffect, useRef, useState } from "preact/hooks";
import { get, getPage, q } from "../api.ts";
import { useDesk } from "../i18n.ts";
import { navigate, type Route } from "../router.ts";
import { type Alert, CAUSES, LEVELS, type Person, STATUSES } from "../types.ts";
import { Badge, ErrorLine, Loading, short, useLoad } from "../ui.tsx";
import { AlertDetail } from "./alert-detail.tsx";

export const PAGE_SIZE = 25;
const REFRESH_MS = 30_000;
const FILTERS = ["status", "level", "cause", "assignee", "client", "dueBefore"] as const;

/** Puts each alert's linked alerts (same transfer, same client event) right after it, marking them. */
function grouped(items: Alert[]): { alert: Alert; linkedTo: string | null }[] {
  const byId = new Map(items.map((a) => [a.id, a]));
  const placed = new Set<string>();
  const out: { alert: Alert; linkedTo: string | null }[] = [];
  for (const alert of items) {
    if (placed.has(alert.id)) continue;
    placed.add(alert.id);
    out.push({ alert, linkedTo: null });
    for (const id of alert.linkedAlertIds ?? []) {
      const linked = byId.get(id);
      if (linked && !placed.has(id)) {
        placed.add(id);
        out.push({ alert: linked, linkedTo: alert.id });
      }
    }
  }
  return out;
}

export function InboxPage({ route }: { route: Route }) {
  const d = useDesk();
  const user = d.session!.user;
  const project = `/v1/projects/${user.projectId}`;
  const query = route.query;
  const page = Math.max(0, Number(query.get("page") ?? 0) || 0);
  const filters = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ""])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const openId = query.get("alert");
  const key = FILTERS.map((f) => filters[f]).join("|");
  const list = useLoad(
    () =>
      getPage<Alert>(
        `${project}/alerts${q({
          ...filters,
          dueBefore: filters.dueBefore ? new Date(`${filters.dueBefore}T23:59:59`).toISOString() : undefined,
          limit: PAGE_SIZE,
          offset: page * PAGE_SIZE,
        })}`,
      ),
    [key, page],
  );
  const people = useLoad(() => get<Person[]>(`${project}/users`), []);
  const [refreshedAt, setRefreshedAt] = useState(Date.now());
  const editing = useRef(false);

  // Refreshes itself, unless she is in the middle of a form (typing a note, choosing a filter).
  useEffect(() => {
    const timer = setInterval(() => {
      const active = document.activeElement;
      const inForm =
        active instanceof HTMLElement && active.closest("form") !== null && active.tagName !== "BUTTON";
      if (inForm || editing.current || document.hidden) return;
      list.reload();
      setRefreshedAt(Date.now());
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [list.reload]);

  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") next.delete(k);
      else next.set(k, v);
    }
    navigate(`/app${next.size ? `?${next}` : ""}`, true);
  };

  const applyFilters = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    go({
      ...Object.fromEntries(FILTERS.map((f) => [f, String(form.get(f) ?? "")])),
      page: null,
      alert: null,
    });
  };

  const personName = (a: Alert) => a.assigneeUser?.displayName ?? a.assignee ?? "—";
  const total = list.data?.total ?? null;
  const items = list.data?.items ?? [];
  const onPage = new Set(items.map((a) => a.id));
  const withAlert = (id: string) => {
    const next = new URLSearchParams(query);
    next.set("alert", id);
    return `/app?${next}`;
  };
  const pages = total === null ? null : Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div class={`inbox-layout${openId ? " with-detail" : ""}`}>
      <section aria-labelledby="inbox-heading" class="inbox-list">
        <div class="page-head">
          <h1 id="inbox-heading">
            {filters.cause === "person_match" ? d.t("desk.menu.matches") : d.t("desk.inbox.heading")}
          </h1>
          <p class="muted" aria-live="polite">
            {d.t("desk.inbox.refreshed", { time: d.time(new Date(refreshedAt).toISOString()) })}
          </p>
        </div>
        <form id="filters" class="filters" onSubmit={applyFilters} key={key}>
          <label>
            {d.t("desk.filter.status")}
            <select name="status" id="filter-status" defaultValue={filters.status}>
              <option value="">{d.t("desk.filter.any")}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {d.label("desk.status", s)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {d.t("desk.filter.level")}
            <select name="level" id="filter-level" defaultValue={filters.level}>
              <option value="">{d.t("desk.filter.any")}</option>
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {d.label("desk.level", l)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {d.t("desk.filter.cause")}
            <select name="cause" id="filter-cause" defaultValue={filters.cause}>
              <option value="">{d.t("desk.filter.any")}</option>
              {CAUSES.map((c) => (
                <option key={c} value={c}>
                  {d.label("desk.cause", c)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {d.t("desk.filter.assignee")}
            <select name="assignee" id="filter-assignee" defaultValue={filters.assignee}>
              <option value="">{d.t("desk.filter.anyone")}</option>
              {(people.data ?? []).map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.displayName}
                </option>
              ))}
            </select>
          </label>
          <label>
            {d.t("desk.filter.client")}
            <input name="client" id="filter-client" defaultValue={filters.client} maxLength={200} />
          </label>
          <label>
            {d.t("desk.filter.due_before")}
            <input name="dueBefore" id="filter-due" type="date" defaultValue={filters.dueBefore} />
          </label>
          <div class="filter-actions">
            <button type="submit">{d.t("desk.filter.apply")}</button>
            <button type="button" class="secondary" onClick={() => navigate("/app", true)}>
              {d.t("desk.filter.clear")}
            </button>
          </div>
        </form>
        <ErrorLine error={list.error} />
        {!list.data && !list.error && <Loading />}
        {list.data && (
          <>
            <p id="inbox-total" data-total={total ?? ""}>
              {total === null
                ? d.t("desk.inbox.shown", { count: items.length })
                : d.t("desk.inbox.total", { count: total, page: page + 1, pages: pages ?? 1 })}
            </p>
            <div class="table-wrap">
              <table id="inbox" data-status="ready" data-count={items.length}>
                <caption class="sr-only">{d.t("desk.inbox.heading")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{d.t("desk.col.deadline")}</th>
                    <th scope="col">{d.t("desk.col.level")}</th>
                    <th scope="col">{d.t("desk.col.cause")}</th>
                    <th scope="col">{d.t("desk.col.client")}</th>
                    <th scope="col">{d.t("desk.col.status")}</th>
                    <th scope="col">{d.t("desk.col.assignee")}</th>
                    <th scope="col">{d.t("desk.col.created")}</th>
                    <th scope="col">
                      <span class="sr-only">{d.t("desk.col.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {grouped(items).map(({ alert, linkedTo }) => (
                    <tr
                      key={alert.id}
                      data-alert-id={alert.id}
                      data-overdue={String(alert.deadline?.overdue ?? false)}
                      data-linked-to={linkedTo ?? undefined}
                      class={`${linkedTo ? "linked" : ""}${alert.id === openId ? " open" : ""}`}
                    >
                      <td>
                        {alert.deadline ? (
                          <span
                            class={alert.deadline.overdue ? "overdue" : "due"}
                            title={d.time(alert.deadline.at)}
                          >
                            {alert.deadline.overdue ? <strong>{d.t("desk.inbox.overdue")} </strong> : null}
                            {d.countdown(alert.deadline.at)}
                          </span>
                        ) : (
                          "—"
                        )}
                      </td>
                      <td>
                        <Badge kind="level" value={alert.level} />
                      </td>
                      <td>
                        {d.label("desk.cause", alert.cause)}
                        {linkedTo && (
                          <span class="linked-note">{d.t("desk.inbox.linked", { id: linkedTo })}</span>
                        )}
                        {(alert.linkedAlertIds ?? []).some((id) => !onPage.has(id)) && (
                          // Linked alerts on another page (or filtered out): named here, one click away.
                          <span class="linked-note" data-linked-elsewhere>
                            {d.t("desk.inbox.linked_elsewhere")}{" "}
                            {(alert.linkedAlertIds ?? [])
                              .filter((id) => !onPage.has(id))
                              .map((id) => (
                                <a key={id} href={withAlert(id)} data-internal data-linked-id={id}>
                                  {d.t("desk.alert.heading", { id })}
                                </a>
                              ))}
                          </span>
                        )}
                      </td>
                      <td>
                        {alert.subject.userId ? (
                          <a href={`/app/cases/${encodeURIComponent(alert.subject.userId)}`} data-internal>
                            {alert.subject.userId}
                          </a>
                        ) : (
                          <span class="mono">{short(alert.subject.address)}</span>
                        )}
                      </td>
                      <td>
                        <Badge kind="status" value={alert.status} />
                      </td>
                      <td>{personName(alert)}</td>
                      <td>{d.time(alert.createdAt)}</td>
                      <td>
                        <button
                          type="button"
                          class="open-alert secondary"
                          aria-label={d.t("desk.inbox.open_label", { id: alert.id })}
                          onClick={() => go({ alert: alert.id })}
                        >
                          {d.t("desk.inbox.open")}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {items.length === 0 && <p class="muted">{d.t("desk.inbox.empty")}</p>}
            <nav class="pager" aria-label={d.t("desk.pager.label")}>
              <button
                type="button"
                id="page-prev"
                class="secondary"
                disabled={page === 0}
                onClick={() => go({ page: page > 1 ? String(page - 1) : null })}
              >
                {d.t("desk.pager.prev")}
              </button>
              <button
                type="button"
                id="page-next"
                class="secondary"
                disabled={pages !== null ? page + 1 >= pages : items.length < PAGE_SIZE}
                onClick={() => go({ page: String(page + 1) })}
              >
                {d.t("desk.pager.next")}
              </button>
            </nav>
          </>
        )}
      </section>
      {openId && (
        <AlertDetail
          key={openId}
          alertId={openId}
          people={people.data ?? []}
          onChanged={list.reload}
          onClose={() => go({ alert: null })}
          onEditing={(on) => {
            editing.current = on;
          }}
        />
      )}
    </div>
  );
}
