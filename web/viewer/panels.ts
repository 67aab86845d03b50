// The side panels around the graph: the legend (with a count per node type), the patterns detected now and how
// they appeared and disappeared layer by layer (each with its evidence), the notable addresses (a text way into
// the graph for keyboard and screen-reader users), and the details of the selected node or edge.
import { h, svg } from "./dom.ts";
import { shortAddress } from "./graph-view.ts";
import {
  describeEdge,
  type EdgeState,
  formatUsd,
  type InvestigationGraph,
  type LayerSummary,
  type NodeState,
} from "./model.ts";
import { LEGEND_ORDER, LOOK, swatchPath } from "./palette.ts";
import type { LayerPattern, NodeType } from "./types.ts";

export interface PanelActions {
  /** Highlights a pattern's wallets in the graph (undefined clears); returns how many were found. */
  highlight(wallets: string[] | undefined): number;
  /** Centres the graph on an address. */
  focus(address: string): boolean;
}

const SEVERITY_ORDER = ["critical", "high", "medium", "low"];
const PATTERN_NAMES: Record<string, string> = {
  mixing: "Mixing",
  peel_chain: "Peel chain",
  structuring: "Structuring",
  round_tripping: "Round-tripping",
  mass_wallet_creation: "Mass wallet creation",
  wash_trading: "Wash trading",
  exchange_hopping: "Exchange hopping",
  sanctions_exposure: "Sanctions exposure",
};

const patternName = (type: string) => PATTERN_NAMES[type] ?? type.replace(/_/g, " ");
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
        h("span", { class: "legend-name" }, LOOK[type].name),
        h("span", { class: "legend-count" }, counts.get(type) ?? 0),
        h("span", { class: "legend-hint" }, LOOK[type].hint),
      ),
    ),
    h(
      "li",
      { "data-type": "inferred", class: inferred > 0 ? "" : "absent" },
      h("span", { class: "legend-inferred", "aria-hidden": "true" }),
      h("span", { class: "legend-name" }, "Inferred"),
      h("span", { class: "legend-count" }, inferred),
      h(
        "span",
        { class: "legend-hint" },
        "dashed outline: exchange deposit addresses Vigía inferred, not from a label set",
      ),
    ),
  );
}

function evidenceBlock(pattern: LayerPattern, actions: PanelActions): HTMLElement | undefined {
  const evidence = pattern.evidence;
  if (!evidence) return undefined;
  const wallets = evidence.wallets ?? [];
  const txs = evidence.txHashes ?? [];
  const thresholds = Object.entries(evidence.thresholds ?? {});
  const status = h("span", { class: "evidence-status", role: "status" });
  return h(
    "details",
    { class: "evidence" },
    h(
      "summary",
      {},
      `Evidence: ${wallets.length} wallet${wallets.length === 1 ? "" : "s"}, ${txs.length} transaction${txs.length === 1 ? "" : "s"}`,
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
                    ? `${found} highlighted`
                    : `${found} of ${wallets.length} are in the graph so far`;
              },
            },
            "Highlight in graph",
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
            "Clear",
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
                  title: "Show in the graph",
                  onclick: () => actions.focus(w),
                },
                h("code", {}, w),
              ),
            ),
          ),
        )
      : null,
    txs.length > 0 ? h("ul", { class: "txs" }, ...txs.map((t) => h("li", {}, h("code", {}, t)))) : null,
    thresholds.length > 0
      ? h(
          "p",
          { class: "thresholds muted" },
          `Thresholds: ${thresholds.map(([k, v]) => `${k} ${v}`).join(", ")}`,
        )
      : null,
  );
}

function patternCard(pattern: LayerPattern, actions: PanelActions, note?: string): HTMLElement {
  const severity = pattern.severity.toLowerCase();
  return h(
    "article",
    { class: `pattern severity-${severity}`, "data-pattern": pattern.patternType },
    h(
      "header",
      {},
      h("span", { class: `badge severity-${severity}` }, severity),
      h("strong", {}, patternName(pattern.patternType)),
      h("span", { class: "confidence" }, `confidence ${Math.round((pattern.confidence ?? 0) * 100)}%`),
      note ? h("span", { class: "note" }, note) : null,
    ),
    h("p", {}, pattern.description),
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
      : [
          h("p", { class: "empty" }, latest ? "No pattern detected so far." : "Waiting for the first layer."),
        ]),
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
          `Layer ${layer.layer}`,
          h("span", { class: "muted" }, ` · ${layer.totalNodes} nodes, ${layer.totalEdges} transfers`),
        ),
        added.length === 0 && removed.length === 0
          ? h("p", { class: "muted" }, "No change in patterns.")
          : null,
        ...added.map((p) =>
          h("div", { class: "change appeared" }, patternCard(p, actions, "appeared at this layer")),
        ),
        ...removed.map((p) =>
          h("div", { class: "change removed" }, patternCard(p, actions, "no longer detected")),
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
            n.isRoot ? `Root: ${n.label ?? shortAddress(n.address)}` : (n.label ?? shortAddress(n.address)),
          ),
          h("span", { class: "muted" }, ` · ${LOOK[n.type].name}, hop ${n.depth}`),
        ),
      ),
    ),
    ...(interesting.length > shown.length
      ? [h("li", { class: "muted" }, `and ${interesting.length - shown.length} more`)]
      : []),
  );
}

export function renderNodeDetails(panel: HTMLElement, node: NodeState, graph: InvestigationGraph): void {
  let outgoing = 0;
  let incoming = 0;
  for (const e of graph.edges.values()) {
    if (e.from === node.address) outgoing++;
    if (e.to === node.address) incoming++;
  }
  panel.replaceChildren(
    h("h3", {}, node.label ?? "Address", node.isRoot ? " (investigated address)" : ""),
    h(
      "dl",
      {},
      h("dt", {}, "Address"),
      h("dd", {}, h("code", { class: "selectable" }, node.address)),
      h("dt", {}, "Type"),
      h("dd", {}, swatch(node.type), ` ${LOOK[node.type].name}`),
      node.category ? h("dt", {}, "Category") : null,
      node.category ? h("dd", {}, node.category) : null,
      node.inferred ? h("dt", {}, "Label") : null,
      node.inferred
        ? h(
            "dd",
            { class: "inferred" },
            "Inferred by Vigía, not from a label set: this address forwards what it receives to the exchange's labelled wallets, as an exchange deposit address does",
          )
        : null,
      h("dt", {}, "Hops from the root"),
      h("dd", {}, node.depth),
      h("dt", {}, "Counterparties"),
      h("dd", {}, `${outgoing} sent to, ${incoming} received from`),
    ),
  );
}

export function renderEdgeDetails(panel: HTMLElement, edge: EdgeState, graph: InvestigationGraph): void {
  const name = (address: string) => graph.nodes.get(address)?.label ?? shortAddress(address);
  panel.replaceChildren(
    h("h3", {}, `${name(edge.from)} → ${name(edge.to)}`),
    h("p", {}, describeEdge(edge)),
    h(
      "dl",
      {},
      h("dt", {}, "From"),
      h("dd", {}, h("code", { class: "selectable" }, edge.from)),
      h("dt", {}, "To"),
      h("dd", {}, h("code", { class: "selectable" }, edge.to)),
      edge.txHashes.length > 0 ? h("dt", {}, "Transactions") : null,
      edge.txHashes.length > 0
        ? h(
            "dd",
            {},
            h(
              "ul",
              { class: "txs" },
              ...edge.txHashes.map((t) => h("li", {}, h("code", { class: "selectable" }, t))),
              edge.count > edge.txHashes.length
                ? h("li", { class: "muted" }, `and ${edge.count - edge.txHashes.length} more`)
                : null,
            ),
          )
        : null,
    ),
  );
}
