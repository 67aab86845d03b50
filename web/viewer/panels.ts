// The side panels around the graph: the legend (with a count per node type), the patterns detected now and how
// they appeared and disappeared layer by layer (each with the rule it met in words and its evidence), and the
// notable addresses (a text way into the graph for keyboard and screen-reader users). The details of the
// selected node or edge are in details.ts, the exposure in exposure-panel.ts.
//
// Pattern cards carry no coloured level badge: a detector's severity ("high" for every peel chain) is one input
// of the score, not the address's level, and a "HIGH" badge beside a score of 52, medium, read as a
// contradiction. The one level shown is the layer's riskLevel, beside the score (main.ts); a card names its
// severity in words.
import { h, svg } from "./dom.ts";
import { shortAddress } from "./graph-view.ts";
import { formatNumber, t, tOptional } from "./i18n.ts";
import { formatUsd, type LayerSummary, type NodeState } from "./model.ts";
import { LEGEND_ORDER, LOOK, swatchPath, typeHint, typeName } from "./palette.ts";
import { thresholdsInWords } from "./thresholds.ts";
import type { LayerPattern, NodeType } from "./types.ts";

export interface PanelActions {
  /** Highlights a pattern's wallets in the graph (undefined clears); returns how many were found. */
  highlight(wallets: string[] | undefined): number;
  /** Centres the graph on an address. */
  focus(address: string): boolean;
}

const SEVERITY_ORDER = ["critical", "high", "medium", "low"];
/** A pattern's name in the reader's language (the catalog's `viewer.pattern.<type>`). */
export const patternName = (type: string) => tOptional(`viewer.pattern.${type}`) ?? type.replace(/_/g, " ");
const bySeverity = (a: LayerPattern, b: LayerPattern) =>
  rank(a.severity) - rank(b.severity) || a.patternType.localeCompare(b.patternType);
const rank = (severity: string) => {
  const i = SEVERITY_ORDER.indexOf(severity.toLowerCase());
  return i < 0 ? SEVERITY_ORDER.length : i;
};

export function swatch(type: NodeType): SVGElement {
  const look = LOOK[type];
  return svg(
    "svg",
    { class: "swatch", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
    svg("path", { d: swatchPath(look.shape), fill: look.color }),
  );
}

export function renderLegend(list: HTMLElement, nodes: Map<string, NodeState>): void {
  const counts = new Map<NodeType, number>();
  let inferred = 0;
  for (const n of nodes.values()) {
    counts.set(n.type, (counts.get(n.type) ?? 0) + 1);
    if (n.inferred) inferred++;
  }
  list.replaceChildren(
    ...LEGEND_ORDER.map((type) =>
      h(
        "li",
        { "data-type": type, class: counts.get(type) ? "" : "absent" },
        swatch(type),
        h("span", { class: "legend-name" }, typeName(type)),
        h("span", { class: "legend-count" }, formatNumber(counts.get(type) ?? 0)),
        h("span", { class: "legend-hint" }, typeHint(type)),
      ),
    ),
    h(
      "li",
      { "data-type": "inferred", class: inferred > 0 ? "" : "absent" },
      h("span", { class: "legend-inferred", "aria-hidden": "true" }),
      h("span", { class: "legend-name" }, typeName("inferred")),
      h("span", { class: "legend-count" }, formatNumber(inferred)),
      h("span", { class: "legend-hint" }, typeHint("inferred")),
    ),
  );
}

function evidenceBlock(pattern: LayerPattern, actions: PanelActions): HTMLElement | undefined {
  const evidence = pattern.evidence;
  if (!evidence) return undefined;
  const wallets = evidence.wallets ?? [];
  const txs = evidence.txHashes ?? [];
  const status = h("span", { class: "evidence-status", role: "status" });
  return h(
    "details",
    { class: "evidence" },
    h(
      "summary",
      {},
      t("viewer.evidence", { wallets: wallets.length, txs: txs.length }),
      typeof evidence.usdAmount === "number" ? `, ${formatUsd(evidence.usdAmount)}` : "",
    ),
    wallets.length > 0
      ? h(
          "div",
          { class: "evidence-actions" },
          h(
            "button",
            {
              type: "button",
              onclick: () => {
                const found = actions.highlight(wallets);
                status.textContent =
                  found === wallets.length
                    ? t("viewer.highlighted", { found })
                    : t("viewer.highlighted_some", { found, total: wallets.length });
              },
            },
            t("viewer.highlight"),
          ),
          h(
            "button",
            {
              type: "button",
              onclick: () => {
                actions.highlight(undefined);
                status.textContent = "";
              },
            },
            t("viewer.clear"),
          ),
          status,
        )
      : null,
    wallets.length > 0
      ? h(
          "ul",
          { class: "wallets" },
          ...wallets.map((w) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: "link",
                  title: t("viewer.show_in_graph"),
                  onclick: () => actions.focus(w),
                },
                h("code", {}, w),
              ),
            ),
          ),
        )
      : null,
    txs.length > 0 ? h("ul", { class: "txs" }, ...txs.map((t) => h("li", {}, h("code", {}, t)))) : null,
  );
}

/** The rule the finding met, in words, and the detector's raw parameters behind a toggle. */
function ruleBlock(pattern: LayerPattern): HTMLElement[] {
  const thresholds = pattern.evidence?.thresholds ?? {};
  const entries = Object.entries(thresholds);
  const sentences = thresholdsInWords(pattern.patternType, thresholds);
  const parts: (HTMLElement | null)[] = [
    sentences.length > 0
      ? h("p", { class: "rule" }, h("strong", {}, t("viewer.rule")), sentences.join(" "))
      : null,
    entries.length > 0
      ? h(
          "details",
          { class: "parameters" },
          h("summary", {}, t("viewer.parameters")),
          h(
            "dl",
            {},
            ...entries.flatMap(([k, v]) => [h("dt", {}, h("code", {}, k)), h("dd", {}, String(v))]),
          ),
        )
      : null,
  ];
  return parts.filter((e): e is HTMLElement => e !== null);
}

function patternCard(pattern: LayerPattern, actions: PanelActions, note?: string): HTMLElement {
  const severity = pattern.severity.toLowerCase();
  return h(
    "article",
    { class: "pattern", "data-pattern": pattern.patternType, "data-severity": severity },
    h(
      "header",
      {},
      h("strong", {}, patternName(pattern.patternType)),
      h(
        "span",
        { class: "meta" },
        t("viewer.pattern_meta", {
          severity: tOptional(`viewer.severity.${severity}`) ?? severity,
          confidence: Math.round((pattern.confidence ?? 0) * 100),
        }),
      ),
      note ? h("span", { class: "note" }, note) : null,
    ),
    h("p", {}, pattern.description),
    ...ruleBlock(pattern),
    evidenceBlock(pattern, actions) ?? null,
  );
}

export function renderPatterns(
  current: HTMLElement,
  log: HTMLElement,
  layers: LayerSummary[],
  actions: PanelActions,
): void {
  const latest = layers[layers.length - 1];
  const detected = [...(latest?.detectedPatterns ?? [])].sort(bySeverity);
  current.replaceChildren(
    ...(detected.length > 0
      ? detected.map((p) => patternCard(p, actions))
      : [h("p", { class: "empty" }, latest ? t("viewer.no_pattern") : t("viewer.waiting_first"))]),
  );
  current.dataset.count = String(detected.length);

  const entries: HTMLElement[] = [];
  for (const layer of [...layers].reverse()) {
    const added = [...layer.newPatterns].sort(bySeverity);
    const removed = [...layer.removedPatterns].sort(bySeverity);
    entries.push(
      h(
        "li",
        { "data-layer": layer.layer },
        h(
          "h4",
          {},
          t("viewer.layer", { layer: layer.layer }),
          h(
            "span",
            { class: "muted" },
            t("viewer.layer_size", { nodes: layer.totalNodes, edges: layer.totalEdges }),
          ),
        ),
        added.length === 0 && removed.length === 0 ? h("p", { class: "muted" }, t("viewer.no_change")) : null,
        ...added.map((p) =>
          h("div", { class: "change appeared" }, patternCard(p, actions, t("viewer.appeared"))),
        ),
        ...removed.map((p) =>
          h("div", { class: "change removed" }, patternCard(p, actions, t("viewer.removed"))),
        ),
      ),
    );
  }
  log.replaceChildren(...entries);
}

/** Nodes that deserve a look: the root, then labelled or risky ones, riskiest type first. */
export function renderNotable(list: HTMLElement, nodes: Map<string, NodeState>, actions: PanelActions): void {
  const interesting = [...nodes.values()].filter(
    (n) => n.isRoot || n.label || !["eoa", "unknown", "contract"].includes(n.type),
  );
  interesting.sort(
    (a, b) =>
      Number(b.isRoot) - Number(a.isRoot) ||
      LEGEND_ORDER.indexOf(a.type) - LEGEND_ORDER.indexOf(b.type) ||
      a.depth - b.depth ||
      a.address.localeCompare(b.address),
  );
  const shown = interesting.slice(0, 200);
  list.replaceChildren(
    ...shown.map((n) =>
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: "link", onclick: () => actions.focus(n.address) },
          swatch(n.type),
          h(
            "span",
            {},
            n.isRoot
              ? t("viewer.root", { name: n.label ?? shortAddress(n.address) })
              : (n.label ?? shortAddress(n.address)),
          ),
          h("span", { class: "muted" }, t("viewer.notable_meta", { type: typeName(n.type), hop: n.depth })),
        ),
      ),
    ),
    ...(interesting.length > shown.length
      ? [h("li", { class: "muted" }, t("viewer.and_more", { count: interesting.length - shown.length }))]
      : []),
  );
}
