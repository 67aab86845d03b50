// The investigation viewer's entry point (bundled with cytoscape into /app/assets/viewer.js by
// src/viewer/bundle.ts). It chooses its language (the signed-in person's setting, else `?lang=`, else the
// browser's; i18n.ts) and, for a signed-in person, reads with her session and asks for no key; otherwise it asks
// for the API key (kept only in this tab's sessionStorage) and the project id (or takes `?project=`). It reads
// the investigation, polls its analysis' progress every 2 s as docs/api.md
// advises, fetches every completed layer it has not drawn yet, and grows the graph, the score chart and the
// pattern log layer by layer.
//
// The graph container carries the state machines read (the browser test, the benchmark): `data-status`
// (loading, waiting, pending, running, completed, failed, error), `data-completed-layers` (layers drawn),
// `data-node-count`, `data-edge-count`, `data-exposure-nodes` and `data-exposure-edges`. Each drawn layer also
// leaves a `vigia:layer-N` performance measure, from the layer's response to the frame that shows it.
import { ApiClient, ApiError, explain, readSession } from "./api.ts";
import { type DetailsContext, renderEdgeDetails, renderNodeDetails } from "./details.ts";
import { byId } from "./dom.ts";
import { isEmphasised, pathElements } from "./exposure.ts";
import { renderExposure } from "./exposure-panel.ts";
import { explorerBase } from "./format.ts";
import { GraphView, type Selection } from "./graph-view.ts";
import { formatNumber, languageOf, t, tOptional, useLanguage } from "./i18n.ts";
import { InvestigationGraph } from "./model.ts";
import { renderLegend, renderNotable, renderPatterns } from "./panels.ts";
import { formatScore, levelName, levelOf, renderScoreChart } from "./score-chart.ts";
import type { CompletedLayer, Investigation, Progress } from "./types.ts";

const POLL_MS = 2_000;
const KEY_STORAGE = "vigia.viewer.apiKey";
const PROJECT_STORAGE = "vigia.viewer.projectId";

type ViewerStatus = "loading" | "waiting" | "pending" | "running" | "completed" | "failed" | "error";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

const investigationId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");

const els = {
  form: byId<HTMLFormElement>("key-form"),
  keyInput: byId<HTMLInputElement>("key-input"),
  projectInput: byId<HTMLInputElement>("project-input"),
  formError: byId("form-error"),
  viewer: byId("viewer"),
  message: byId("message"),
  forget: byId<HTMLButtonElement>("forget-key"),
  title: byId("investigation-name"),
  facts: byId("investigation-facts"),
  statusBadge: byId("status-badge"),
  progressBar: byId<HTMLProgressElement>("progress-bar"),
  progressText: byId("progress-text"),
  scoreNow: byId("score-now"),
  scoreLevel: byId("score-level"),
  scoreReason: byId("score-reason"),
  graph: byId("graph"),
  fit: byId<HTMLButtonElement>("fit"),
  detailsPanel: byId("details-panel"),
  detailsClose: byId<HTMLButtonElement>("details-close"),
  details: byId("details"),
  exposure: byId("exposure-list"),
  legend: byId("legend"),
  chart: byId("score-chart"),
  scoreList: byId<HTMLOListElement>("score-list"),
  patternsNow: byId("patterns-now"),
  patternLog: byId("pattern-log"),
  notable: byId("notable"),
};

let session = 0; // bumped on every (re)start, so an old polling loop stops on its own
/** Signed in: the calls carry the session cookie, and a refusal sends to sign-in, not to the key form. */
let signedIn = false;
let currentView: GraphView | undefined;
/** The investigation's chain's explorer (http(s)), when the chain registry names one: transaction links. */
let explorer: string | undefined;
/** What the details panel shows: drawn again when a layer arrives (a node's transfers grow with the graph). */
let selected: Selection | undefined;

function setStatus(status: ViewerStatus): void {
  els.graph.dataset.status = status;
  els.statusBadge.dataset.status = status;
  els.statusBadge.textContent = tOptional(`viewer.status.${status}`) ?? status;
}

function showMessage(text: string | undefined, kind: "error" | "info" = "error"): void {
  els.message.hidden = !text;
  els.message.textContent = text ?? "";
  els.message.className = `message ${kind}`;
}

function askForKey(error?: string): void {
  session++;
  sessionStorage.removeItem(KEY_STORAGE);
  els.viewer.hidden = true;
  els.forget.hidden = true;
  els.form.hidden = false;
  els.formError.textContent = error ?? "";
  els.formError.hidden = !error;
  els.projectInput.value = projectFromUrl() ?? sessionStorage.getItem(PROJECT_STORAGE) ?? "";
  els.keyInput.value = "";
  (els.projectInput.value ? els.keyInput : els.projectInput).focus();
}

const projectFromUrl = () => new URLSearchParams(location.search).get("project") || undefined;

/** `key` undefined: the signed-in session reads. */
function start(key: string | undefined, projectId: string): void {
  const mine = ++session;
  els.form.hidden = true;
  els.viewer.hidden = false;
  els.forget.hidden = key === undefined;
  showMessage(undefined);
  void follow(new ApiClient(key, projectId), mine).catch((error: unknown) => {
    if (mine !== session) return;
    // A wrong key or a key of another project: back to the form, saying which.
    if (error instanceof ApiError && (error.status === 401 || error.status === 403) && !signedIn) {
      askForKey(explain(error, t("viewer.doing.investigation")));
      return;
    }
    setStatus("error");
    showMessage(explain(error, t("viewer.doing.stopped"), signedIn));
  });
}

/** Retries a call while its failure is retryable (network, 429, 5xx), showing why; rethrows the others. */
async function withRetry<T>(mine: number, what: string, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await call();
      if (attempt > 0) showMessage(undefined);
      return value;
    } catch (error) {
      if (!(error instanceof ApiError) || !error.retryable || mine !== session) throw error;
      showMessage(explain(error, what, signedIn));
      await sleep(Math.min(POLL_MS * 2 ** attempt, 30_000));
    }
  }
}

async function follow(client: ApiClient, mine: number): Promise<void> {
  setStatus("loading");
  const model = new InvestigationGraph();
  // A new key starts over on a clean graph: the previous cytoscape instance lets go of the container.
  currentView?.destroy();
  explorer = undefined;
  selected = undefined;
  const view = new GraphView(els.graph, (selection) => select(selection, model));
  currentView = view;
  els.graph.dataset.completedLayers = "0";
  select(undefined, model);
  els.fit.onclick = () => view.fit();
  const actions = {
    highlight: (w: string[] | undefined) => view.highlight(w),
    focus: (a: string) => view.focus(a),
  };
  renderAll(model, actions, 0);

  let investigation = await withRetry(mine, t("viewer.doing.investigation"), () =>
    client.investigation(investigationId),
  );
  // The key worked for this project: remember which one for a reload of this tab.
  sessionStorage.setItem(PROJECT_STORAGE, client.projectId);
  renderInvestigation(investigation);
  // Links to the explorer are a convenience: without the chain list the hashes are shown as text.
  const chainId = Number(investigation.chain_id);
  const chains = await client.chains().catch(() => []);
  if (mine !== session) return;
  explorer = explorerBase(chains.find((c) => c.id === chainId)?.explorer_url);

  // Incremental mode answers before the analysis record exists: read the investigation again until it does.
  while (!investigation.analysis_id) {
    if (mine !== session) return;
    if (investigation.graph) {
      drawWhole(model, view, actions, investigation);
      return;
    }
    if (investigation.status === "failed") return failed(investigation.error ?? undefined);
    setStatus("waiting");
    await sleep(POLL_MS);
    investigation = await withRetry(mine, t("viewer.doing.investigation"), () =>
      client.investigation(investigationId),
    );
    renderInvestigation(investigation);
  }
  const analysisId = investigation.analysis_id;

  for (;;) {
    if (mine !== session) return;
    const progress = await withRetry(mine, t("viewer.doing.progress"), () => client.progress(analysisId));
    if (mine !== session) return;
    renderProgress(progress, model);

    for (const index of model.missingLayers(progress.completedLayers)) {
      let result: Awaited<ReturnType<ApiClient["layer"]>>;
      try {
        result = await withRetry(mine, t("viewer.doing.layer", { layer: index }), () =>
          client.layer(analysisId, index),
        );
      } catch (error) {
        // A standard-mode analysis may have no layers to read: draw its complete graph instead.
        if (error instanceof ApiError && [400, 404].includes(error.status) && !progress.incremental) {
          const latest = await client.investigation(investigationId);
          if (latest.graph) return drawWhole(model, view, actions, latest);
        }
        throw error;
      }
      if (mine !== session) return;
      if (result.status !== "completed") break; // not stored yet: the next poll asks again
      const received = performance.now();
      drawLayer(model, view, actions, result, progress.maxDepth);
      const drawn = performance.now();
      await nextFrame();
      await nextFrame(); // the frame after the one that painted it
      performance.measure(`vigia:layer-${result.layer}:paint`, { start: drawn, end: performance.now() });
      performance.measure(`vigia:layer-${result.layer}`, { start: received, end: performance.now() });
      els.graph.dataset.completedLayers = String(model.layers.length);
    }

    const allDrawn = model.missingLayers(progress.completedLayers).length === 0;
    if (progress.status === "completed" && allDrawn) {
      renderProgress(progress, model);
      setStatus("completed");
      return;
    }
    if (progress.status === "failed" && allDrawn) {
      const latest = await client.investigation(investigationId).catch(() => undefined);
      return failed(progress.error ?? latest?.error ?? undefined);
    }
    setStatus(progress.status === "pending" ? "pending" : "running");
    await sleep(POLL_MS);
  }
}

function failed(reason: string | undefined): void {
  setStatus("failed");
  showMessage(reason ? t("viewer.failed_because", { reason }) : t("viewer.failed"));
}

interface Actions {
  highlight(wallets: string[] | undefined): number;
  focus(address: string): boolean;
}

function drawLayer(
  model: InvestigationGraph,
  view: GraphView,
  actions: Actions,
  layer: CompletedLayer,
  maxDepth: number,
): void {
  // Each step leaves a measure, so a slow layer says where its time went (bench/viewer-render.ts reports them).
  const step = (name: string, run: () => void) => {
    const start = performance.now();
    run();
    performance.measure(`vigia:layer-${layer.layer}:${name}`, { start, end: performance.now() });
  };
  let change: ReturnType<InvestigationGraph["applyLayer"]> | undefined;
  step("model", () => {
    change = model.applyLayer(layer);
  });
  step("graph", () => view.apply(change!, model.edges.values(), model.nodes));
  step("exposure", () => drawExposure(model, view));
  step("panels", () => renderAll(model, actions, Math.max(maxDepth, layer.totalLayers ?? 0)));
  if (selected) select(selected, model);
}

/** The latest layer's risky exposure paths, drawn emphasised (exposure.ts says which and why). */
function drawExposure(model: InvestigationGraph, view: GraphView): void {
  const root = model.rootAddress;
  const paths = (model.latest?.exposure ?? []).filter(isEmphasised);
  const { nodes, edges } = root
    ? pathElements(paths, root, model.edges.values())
    : { nodes: new Set<string>(), edges: new Set<string>() };
  view.setExposure(nodes, edges);
}

function drawWhole(
  model: InvestigationGraph,
  view: GraphView,
  actions: Actions,
  investigation: Investigation,
): void {
  const change = model.applyWholeGraph(investigation.graph!);
  view.apply(change, model.edges.values(), model.nodes);
  renderAll(model, actions, investigation.max_depth);
  els.progressText.textContent = t("viewer.standard_whole");
  els.graph.dataset.completedLayers = "1";
  setStatus(investigation.status === "failed" ? "failed" : "completed");
}

function renderAll(model: InvestigationGraph, actions: Actions, totalLayers: number): void {
  renderLegend(els.legend, model.nodes);
  renderScoreChart(els.chart, els.scoreList, model.layers, totalLayers);
  renderExposure(els.exposure, model, actions);
  renderPatterns(els.patternsNow, els.patternLog, model.layers, actions);
  renderNotable(els.notable, model.nodes, actions);
  els.graph.setAttribute(
    "aria-label",
    t("viewer.graph.described", {
      nodes: model.nodes.size,
      edges: model.edges.size,
      transfers: model.transferCount,
    }),
  );
}

function renderInvestigation(inv: Investigation): void {
  els.title.textContent = inv.name || t("viewer.investigation_id", { id: inv.id });
  document.title = `${inv.name || t("viewer.investigation")} · Vigía`;
  els.facts.replaceChildren(
    fact(t("viewer.fact.address"), inv.address, true),
    fact(t("viewer.fact.chain"), String(inv.chain_id)),
    fact(t("viewer.fact.mode"), inv.incremental ? t("viewer.mode.incremental") : t("viewer.mode.standard")),
    fact(t("viewer.fact.max_depth"), formatNumber(inv.max_depth)),
  );
}

function fact(name: string, value: string, code = false): HTMLElement {
  const wrap = document.createElement("div");
  const dt = document.createElement("dt");
  dt.textContent = name;
  const dd = document.createElement("dd");
  const inner = document.createElement(code ? "code" : "span");
  inner.textContent = value;
  if (code) inner.title = value;
  dd.append(inner);
  wrap.append(dt, dd);
  return wrap;
}

function renderProgress(progress: Progress, model: InvestigationGraph): void {
  const total = Math.max(1, progress.maxDepth);
  els.progressBar.max = total;
  els.progressBar.value = Math.min(total, progress.completedLayers);
  els.progressText.textContent = t("viewer.progress", {
    done: progress.completedLayers,
    total: progress.maxDepth,
    drawn: model.layers.length,
  });
  const latest = model.latest;
  const score =
    progress.status === "completed" && latest ? latest.riskScore : (progress.riskScore ?? latest?.riskScore);
  if (
    latest &&
    latest.riskScore === null &&
    (progress.status === "completed" || progress.riskScore === null)
  ) {
    // A withheld verdict: no score and no level, never an all-clear; the reason below says why.
    els.scoreNow.textContent = t("viewer.score_none");
    delete els.scoreNow.dataset.level;
    els.scoreLevel.hidden = true;
  } else if (typeof score === "number") {
    const provisional = progress.status !== "completed";
    // The level is the API's (the layer's riskLevel) when the score shown is the layer's: one level on the page,
    // the same as the score's, never a second one worked out here or taken from a pattern.
    const level = levelOf(score, score === latest?.riskScore ? latest.riskLevel : undefined);
    els.scoreNow.textContent = provisional
      ? t("viewer.score_provisional", { score: formatScore(score) })
      : `${formatScore(score)} / 100`;
    els.scoreNow.dataset.level = level;
    els.scoreLevel.textContent = levelName(level);
    els.scoreLevel.dataset.level = level;
    els.scoreLevel.hidden = false;
  } else {
    els.scoreNow.textContent = t("viewer.score_unknown");
    els.scoreLevel.hidden = true;
  }
  // The reason beside the score: a score alone cannot be checked, its reason can.
  const reason = latest?.riskReason ?? "";
  els.scoreReason.textContent = reason ? t("viewer.why", { reason }) : "";
  els.scoreReason.hidden = reason === "";
}

function select(selection: Selection | undefined, model: InvestigationGraph): void {
  const again = selection !== undefined && selection.id === selected?.id;
  selected = selection;
  if (!selection) {
    els.details.replaceChildren();
    els.detailsPanel.hidden = true;
    return;
  }
  const ctx: DetailsContext = {
    explorer,
    showNode: (address) => currentView?.focus(address),
    showEdge: (id) => currentView?.selectEdge(id),
  };
  if (selection.kind === "node") {
    const node = model.nodes.get(selection.id);
    if (!node) return;
    renderNodeDetails(els.details, node, model, ctx);
  } else {
    const edge = model.edges.get(selection.id);
    if (!edge) return;
    renderEdgeDetails(els.details, edge, model, ctx);
  }
  els.detailsPanel.hidden = false;
  if (!again) els.detailsPanel.scrollTop = 0;
}

function closeDetails(): void {
  selected = undefined;
  currentView?.cy.elements().unselect();
  els.details.replaceChildren();
  els.detailsPanel.hidden = true;
}

els.detailsClose.addEventListener("click", closeDetails);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && !els.detailsPanel.hidden) closeDetails();
});

els.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const key = els.keyInput.value.trim().replace(/^ApiKey\s+/i, "");
  const projectId = els.projectInput.value.trim();
  if (!key || !projectId) return;
  sessionStorage.setItem(KEY_STORAGE, key);
  sessionStorage.setItem(PROJECT_STORAGE, projectId);
  start(key, projectId);
});

els.forget.addEventListener("click", () => askForKey());

/** The page's static texts (`data-t`, `data-t-aria-label` in index.html) in the chosen language. */
function translatePage(): void {
  for (const element of document.querySelectorAll<HTMLElement>("[data-t]")) {
    const text = tOptional(element.dataset.t ?? "");
    if (text !== undefined) element.textContent = text;
  }
  for (const element of document.querySelectorAll<HTMLElement>("[data-t-aria-label]")) {
    const text = tOptional(element.dataset.tAriaLabel ?? "");
    if (text !== undefined) element.setAttribute("aria-label", text);
  }
}

async function begin(): Promise<void> {
  const user = await readSession();
  const asked = new URLSearchParams(location.search).get("lang");
  const lang = languageOf(user?.lang ?? asked, navigator.languages ?? [navigator.language]);
  // Dates in the person's own zone, else the browser's (named beside them).
  useLanguage(lang, user?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  document.documentElement.lang = lang === "es" ? "es-MX" : "en";
  translatePage();
  signedIn = user !== undefined;
  if (!investigationId) {
    setStatus("error");
    els.form.hidden = true;
    showMessage(t("viewer.no_id", { example: "<id>?project=<projectId>" }));
    return;
  }
  els.title.textContent = t("viewer.investigation_id", { id: investigationId });
  // Signed in: her project, her session; no key is asked for or kept.
  if (user) return start(undefined, String(user.projectId));
  const key = sessionStorage.getItem(KEY_STORAGE);
  const project = projectFromUrl() ?? sessionStorage.getItem(PROJECT_STORAGE);
  if (key && project) start(key, project);
  else askForKey();
}

void begin();
