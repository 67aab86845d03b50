// The officer's desk (bundled into /app/assets/desk.js by src/viewer/bundle.ts; the page is desk.html, served at
// /app/alerts?project=<id>). The same sign-in as the investigation viewer (the API key kept only in this tab's
// sessionStorage, under the viewer's names, so one sign-in serves both pages). The inbox lists the project's alerts
// with the filters of the API, overdue first; an alert opens with its evidence and history, links to the graph
// viewer and the wallet report, a form for each transition the service allows, notes and assignees, and the
// evidence download. Everything from the API goes in as text (dom.ts), never as markup.
//
// State for tests: the inbox table carries `data-status` (loading, ready, error) and `data-count`; each row
// `data-alert-id`, `data-status` and `data-overdue`; the detail section `data-alert-id` and `data-status`; the
// message box `data-kind` (info, error).
import { ApiError, explain } from "../api.ts";
import { byId, h } from "../dom.ts";
import { DeskClient } from "./api.ts";
import { chooseLang, type Key, type Lang, t } from "./i18n.ts";
import type { Alert, AlertWithHistory } from "./types.ts";

const KEY_STORAGE = "vigia.viewer.apiKey";
const PROJECT_STORAGE = "vigia.viewer.projectId";
const LANG_STORAGE = "vigia.desk.lang";

const params = new URLSearchParams(location.search);
let lang: Lang = chooseLang(params.get("lang"), localStorage.getItem(LANG_STORAGE), navigator.language);
let client: DeskClient | undefined;
let selected: string | undefined;

const els = {
  form: byId<HTMLFormElement>("key-form"),
  keyInput: byId<HTMLInputElement>("key-input"),
  projectInput: byId<HTMLInputElement>("project-input"),
  formError: byId("form-error"),
  desk: byId("desk"),
  message: byId("message"),
  forget: byId<HTMLButtonElement>("forget-key"),
  project: byId("desk-project"),
  lang: byId<HTMLSelectElement>("lang"),
  filters: byId<HTMLFormElement>("filters"),
  inbox: byId<HTMLTableElement>("inbox"),
  detail: byId("detail"),
};

const w = (key: Key) => t(lang, key);

function translatePage(): void {
  document.documentElement.lang = lang;
  els.lang.value = lang;
  for (const el of document.querySelectorAll<HTMLElement>("[data-i18n]"))
    el.textContent = w(el.dataset.i18n as Key);
  document.title = `${w("title")} · Vigía`;
  els.project.textContent = client ? `${w("project")} ${client.projectId}` : "";
}

function say(text: string, kind: "info" | "error" = "info"): void {
  els.message.textContent = text;
  els.message.dataset.kind = kind;
  els.message.classList.toggle("error", kind === "error");
  els.message.hidden = false;
}

function showForm(error?: string): void {
  els.desk.hidden = true;
  els.forget.hidden = true;
  els.form.hidden = false;
  els.projectInput.value = params.get("project") ?? sessionStorage.getItem(PROJECT_STORAGE) ?? "";
  els.formError.hidden = !error;
  els.formError.textContent = error ?? "";
  (els.projectInput.value ? els.keyInput : els.projectInput).focus();
}

/** What the officer reads of a failed call; a rejected key sends the officer back to the form. */
function failed(error: unknown, what: string): void {
  if (error instanceof ApiError && error.status === 401) {
    sessionStorage.removeItem(KEY_STORAGE);
    client = undefined;
    showForm(w("keyRejected"));
    return;
  }
  const detail = error instanceof ApiError && error.message ? error.message : "";
  say(
    error instanceof ApiError && (error.status === 409 || error.status === 400)
      ? `${what}: ${detail}`
      : explain(error, what),
    "error",
  );
}

const stamp = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
const short = (address: string) => `${address.slice(0, 10)}…${address.slice(-6)}`;
const statusWord = (status: string) => w(`s_${status}` as Key);
const causeWord = (cause: string) => w(`c_${cause}` as Key) ?? cause;

/** Overdue first (soonest deadline first), then the newest. */
function inboxOrder(a: Alert, b: Alert): number {
  const ao = a.deadline?.overdue ? 1 : 0;
  const bo = b.deadline?.overdue ? 1 : 0;
  if (ao !== bo) return bo - ao;
  if (ao && bo) return Date.parse(a.deadline!.at) - Date.parse(b.deadline!.at);
  return Number(b.id) - Number(a.id);
}

function filters(): Record<string, string> {
  const data = new FormData(els.filters);
  return Object.fromEntries(
    ["status", "level", "cause", "assignee"].map((name) => [name, String(data.get(name) ?? "").trim()]),
  );
}

async function loadInbox(): Promise<void> {
  if (!client) return;
  els.inbox.dataset.status = "loading";
  let alerts: Alert[];
  try {
    alerts = await client.alerts(filters());
  } catch (error) {
    els.inbox.dataset.status = "error";
    failed(error, w("inbox"));
    return;
  }
  alerts.sort(inboxOrder);
  const body = els.inbox.tBodies[0]!;
  body.replaceChildren(
    ...(alerts.length === 0
      ? [h("tr", {}, h("td", { colspan: 6, class: "muted" }, w("noAlerts")))]
      : alerts.map((a) =>
          h(
            "tr",
            {
              "data-alert-id": a.id,
              "data-status": a.status,
              "data-overdue": String(Boolean(a.deadline?.overdue)),
              class: a.id === selected ? "selected" : undefined,
            },
            h("td", {}, stamp(a.createdAt)),
            h(
              "td",
              {},
              h(
                "button",
                { type: "button", class: "link open-alert", onclick: () => openAlert(a.id) },
                `#${a.id} ${short(a.subject.address)}`,
              ),
              a.subject.userId ? h("span", { class: "muted" }, ` ${a.subject.userId}`) : null,
            ),
            h("td", {}, `${causeWord(a.cause)} · ${a.causeKey}`),
            h("td", {}, h("span", { class: "level-badge", "data-level": a.level }, a.level)),
            h("td", {}, statusWord(a.status)),
            h(
              "td",
              { class: a.deadline?.overdue ? "overdue" : undefined },
              a.deadline
                ? `${a.deadline.overdue ? `${w("overdue")} ` : ""}${stamp(a.deadline.at)} (${a.deadline.filing})`
                : w("none"),
            ),
          ),
        )),
  );
  els.inbox.dataset.count = String(alerts.length);
  els.inbox.dataset.status = "ready";
}

function table(head: string[], rows: (string | number | Node | null)[][]): HTMLElement {
  if (rows.length === 0) return h("p", { class: "muted" }, w("none"));
  return h(
    "table",
    { class: "evidence-table" },
    h("thead", {}, h("tr", {}, ...head.map((c) => h("th", {}, c)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c) => h("td", {}, c))))),
  );
}

function evidenceOf(a: AlertWithHistory): HTMLElement[] {
  const e = a.evidence;
  const parts: HTMLElement[] = [];
  if (e.laws.length > 0)
    parts.push(
      h("h3", {}, w("laws")),
      table(
        ["Id", "", ""],
        e.laws.map((l) => [l.id, l.name, l.source]),
      ),
    );
  if (e.transfers.length > 0)
    parts.push(
      h("h3", {}, w("transfers")),
      table(
        ["UTC", "Tx", "", "USD"],
        e.transfers.map((x) => [
          stamp(x.at),
          h("code", {}, x.txHash),
          `${x.direction} ${x.counterparty ?? ""}`,
          x.usd ?? "—",
        ]),
      ),
    );
  for (const v of e.analyses ?? [])
    parts.push(
      h("h3", {}, `${w("verdicts")}: ${v.kind} ${v.riskScore} (${v.riskLevel}) · ${v.modelVersion ?? ""}`),
      h("p", {}, v.riskReason),
      table(
        ["", "", "Tx"],
        [
          ...v.findings.map((f) => [f.pattern, f.message, f.txs.slice(0, 3).join(" ")]),
          ...v.exposure.map((x) => [
            `${x.category} (${x.direction})`,
            `${x.hops} ${w("hops")} · USD ${x.usd}`,
            x.txs.slice(0, 3).join(" "),
          ]),
        ],
      ),
    );
  if ((e.labels ?? []).length > 0)
    parts.push(
      h("h3", {}, w("labels")),
      table(
        ["", "", "", ""],
        (e.labels ?? []).map((l) => [h("code", {}, l.address), l.label, l.category, l.source ?? "—"]),
      ),
    );
  return parts;
}

function triageForm(a: AlertWithHistory): HTMLElement {
  const status = h(
    "select",
    { name: "status", id: "triage-status" },
    h("option", { value: "" }, "—"),
    ...a.transitions.map((s) => h("option", { value: s }, statusWord(s))),
  );
  const resolution = h(
    "select",
    { name: "resolution", id: "triage-resolution" },
    h("option", { value: "" }, "—"),
    ...(["false_positive", "no_action", "reported"] as const).map((r) =>
      h("option", { value: r }, w(`r_${r}` as Key)),
    ),
  );
  const reference = h("input", { name: "reference", id: "triage-reference", maxlength: 200 });
  const assignee = h("input", {
    name: "assignee",
    id: "triage-assignee",
    maxlength: 200,
    value: a.assignee ?? "",
  });
  const note = h("textarea", { name: "note", id: "triage-note", rows: 3, maxlength: 4000 });
  const form = h(
    "form",
    { class: "triage", id: "triage-form" },
    h("h3", {}, w("triage")),
    a.status === "closed" ? h("p", { class: "muted" }, w("closedStays")) : null,
    a.status === "closed" ? null : h("label", {}, w("moveTo"), status),
    a.status === "closed" ? null : h("label", {}, w("resolution"), resolution),
    a.status === "closed" ? null : h("label", {}, w("reference"), reference),
    h("label", {}, w("assign"), assignee),
    h("label", {}, w("note"), note),
    h("button", { type: "submit", id: "triage-save" }, w("save")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!client) return;
    const body: Record<string, unknown> = {};
    if (status.value) body.status = status.value;
    if (resolution.value) body.resolution = resolution.value;
    if (reference.value.trim()) body.reference = reference.value.trim();
    const wanted = assignee.value.trim() || null;
    if (wanted !== a.assignee) body.assignee = wanted;
    if (note.value.trim()) body.note = note.value.trim();
    if (Object.keys(body).length === 0) return;
    try {
      const updated = await client.triage(a.id, body);
      say(w("saved"));
      renderDetail(updated);
      await loadInbox();
    } catch (error) {
      failed(error, w("triage"));
    }
  });
  return form;
}

async function download(a: Alert, format: "md" | "json"): Promise<void> {
  if (!client) return;
  try {
    const file = await client.evidence(a.id, format);
    const url = URL.createObjectURL(file.blob);
    const link = h("a", { href: url, download: file.fileName, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    say(`${w("downloaded")} ${file.sha256}`);
    els.detail.dataset.evidenceSha256 = file.sha256;
    await openAlert(a.id); // its history now records the download
  } catch (error) {
    failed(error, w("evidence"));
  }
}

async function openGraph(a: Alert): Promise<void> {
  if (!client) return;
  try {
    const created = await client.investigate(a.subject.address, a.subject.chainId, `Alert ${a.id}`);
    location.assign(
      `/app/investigations/${encodeURIComponent(String(created.id))}?project=${encodeURIComponent(client.projectId)}`,
    );
  } catch (error) {
    failed(error, w("graphViewer"));
  }
}

async function showReport(a: Alert, into: HTMLElement): Promise<void> {
  if (!client) return;
  into.replaceChildren(h("p", { class: "muted" }, "…"));
  try {
    const markdown = await client.walletReport(a.subject.address, a.subject.chainId, lang);
    into.replaceChildren(h("pre", { class: "wallet-report" }, markdown));
  } catch (error) {
    into.replaceChildren();
    failed(error, w("walletReport"));
  }
}

function renderDetail(a: AlertWithHistory): void {
  selected = a.id;
  els.detail.dataset.alertId = a.id;
  els.detail.dataset.status = a.status;
  const report = h("div", { id: "wallet-report" });
  els.detail.replaceChildren(
    h("h2", {}, `#${a.id} · ${causeWord(a.cause)} · ${a.causeKey}`),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, w("subject")),
      h("dd", {}, h("code", {}, a.subject.address), ` (chain ${a.subject.chainId})`),
      h("dt", {}, w("user")),
      h("dd", {}, a.subject.userId ?? "—"),
      h("dt", {}, w("level")),
      h("dd", {}, h("span", { class: "level-badge", "data-level": a.level }, a.level)),
      h("dt", {}, w("status")),
      h("dd", { id: "detail-status" }, statusWord(a.status), a.resolution ? ` · ${a.resolution}` : ""),
      h("dt", {}, w("assignee")),
      h("dd", {}, a.assignee ?? "—"),
      h("dt", {}, w("deadline")),
      h(
        "dd",
        { class: a.deadline?.overdue ? "overdue" : undefined },
        a.deadline ? `${stamp(a.deadline.at)} · ${a.deadline.filing} · ${a.deadline.source}` : w("none"),
      ),
    ),
    h("h3", {}, w("reason")),
    h("p", {}, a.reason),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", id: "download-md", onclick: () => download(a, "md") }, w("downloadMd")),
      h(
        "button",
        { type: "button", id: "download-json", class: "secondary", onclick: () => download(a, "json") },
        w("downloadJson"),
      ),
      h("button", { type: "button", class: "secondary", onclick: () => openGraph(a) }, w("graphViewer")),
      h(
        "button",
        { type: "button", class: "secondary", onclick: () => showReport(a, report) },
        w("walletReport"),
      ),
    ),
    report,
    h("h2", {}, w("evidence")),
    ...evidenceOf(a),
    triageForm(a),
    h("h3", {}, w("history")),
    h(
      "ol",
      { class: "history", id: "history" },
      ...a.history.map((entry) =>
        h("li", {}, `${stamp(entry.at)} ${w("by")} ${entry.actor}: ${JSON.stringify(entry.change)}`),
      ),
    ),
  );
  els.detail.hidden = false;
  for (const row of els.inbox.tBodies[0]!.rows)
    row.classList.toggle("selected", row.dataset.alertId === a.id);
}

async function openAlert(id: string): Promise<void> {
  if (!client) return;
  try {
    renderDetail(await client.alert(id));
  } catch (error) {
    failed(error, `#${id}`);
  }
}

async function start(key: string, projectId: string): Promise<void> {
  client = new DeskClient(key, projectId);
  els.form.hidden = true;
  els.desk.hidden = false;
  els.forget.hidden = false;
  els.project.textContent = `${w("project")} ${projectId}`;
  els.message.hidden = true;
  await loadInbox();
}

els.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const key = els.keyInput.value.trim();
  const projectId = els.projectInput.value.trim();
  if (!key || !/^[1-9][0-9]{0,9}$/.test(projectId)) return showForm(w("projectId"));
  sessionStorage.setItem(KEY_STORAGE, key);
  sessionStorage.setItem(PROJECT_STORAGE, projectId);
  els.keyInput.value = "";
  els.message.hidden = true;
  void start(key, projectId);
});
els.filters.addEventListener("submit", (event) => {
  event.preventDefault();
  void loadInbox();
});
els.forget.addEventListener("click", () => {
  sessionStorage.removeItem(KEY_STORAGE);
  client = undefined;
  els.detail.hidden = true;
  showForm();
});
els.lang.addEventListener("change", () => {
  lang = els.lang.value as Lang;
  localStorage.setItem(LANG_STORAGE, lang);
  translatePage();
  void loadInbox();
  if (selected) void openAlert(selected);
});

translatePage();
const storedKey = sessionStorage.getItem(KEY_STORAGE);
const project = params.get("project") ?? sessionStorage.getItem(PROJECT_STORAGE);
if (storedKey && project) void start(storedKey, project);
else showForm();
