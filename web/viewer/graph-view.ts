// The drawn graph: a cytoscape instance fed by the InvestigationGraph model, placed by RingLayout, with the
// counts the browser test and the benchmark read exposed as data attributes on the container
// (`data-node-count`, `data-edge-count`, `data-conversion-edge-count`, `data-bridge-edge-count`, and `data-exposure-nodes` / `data-exposure-edges` for the exposure
// paths drawn emphasised). Rendering settings switch to cheaper ones on large graphs (no arrows, textures while
// panning) so that 5,000 nodes stay interactive.
import cytoscape from "cytoscape";
import { t } from "./i18n.ts";
import { RingLayout } from "./layout.ts";
import { type EdgeState, edgeWeights, type LayerChange, type NodeState } from "./model.ts";
import { LOOK, RISKY_TYPES } from "./palette.ts";
import { NODE_TYPES } from "./types.ts";

/** Above this many edges the arrows and curve computations cost more than they tell. */
const LARGE_GRAPH_EDGES = 2_500;

export const shortAddress = (address: string) =>
  address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;

/** Up to this many nodes, plain wallets show their short address on the graph too. */
const ADDRESS_LABELS_UP_TO = 300;

/**
 * A node's text on the graph: its label, or its short address while the graph is small. A large graph shows
 * only labelled nodes and the root: measuring thousands of address texts is most of cytoscape's drawing time at
 * 5,000 nodes, and an address is one click away in the details panel.
 */
const nodeLabel = (n: NodeState, addresses: boolean) => ({
  display: n.label ?? (n.isRoot || addresses ? shortAddress(n.address) : ""),
  labelled: Boolean(n.label) || n.isRoot,
  inferred: n.inferred,
});
export interface Selection {
  kind: "node" | "edge";
  id: string;
}

function styles(): cytoscape.StylesheetJson {
  const typeStyles: cytoscape.StylesheetJson = NODE_TYPES.map((type) => ({
    selector: `node[type = "${type}"]`,
    style: { "background-color": LOOK[type].color, shape: LOOK[type].shape },
  }));
  return [
    {
      selector: "node",
      style: {
        width: 18,
        height: 18,
        label: "data(display)",
        "font-size": 8,
        "font-family": "system-ui, sans-serif",
        color: "#1f2328",
        "text-valign": "bottom",
        "text-margin-y": 3,
        "text-outline-color": "#ffffff",
        "text-outline-width": 2,
        // Labels of unlabelled wallets only once zoomed in: at 5,000 nodes they are noise (and slow).
        "min-zoomed-font-size": 9,
        "border-width": 1,
        "border-color": "#ffffff",
      },
    },
    ...typeStyles,
    {
      selector: "node[?labelled]",
      style: { "font-size": 11, "font-weight": "bold", "min-zoomed-font-size": 5, width: 22, height: 22 },
    },
    {
      selector: "node[?root]",
      style: {
        width: 34,
        height: 34,
        "border-width": 4,
        "border-color": "#1f2328",
        "font-size": 12,
        "font-weight": "bold",
        "min-zoomed-font-size": 0,
        "z-index": 10,
      },
    },
    // An inferred type (an exchange deposit address) is drawn with a dashed outline: the service's reading, not a
    // label set's.
    {
      selector: "node[?inferred]",
      style: { "border-width": 2, "border-style": "dashed", "border-color": "#1f2328" },
    },
    { selector: "node.fresh", style: { "border-width": 3, "border-color": "#f9ab00" } },
    {
      selector: "edge",
      style: {
        width: "data(width)",
        "line-color": "#9aa4ae",
        "target-arrow-color": "#9aa4ae",
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.8,
        "curve-style": "straight",
        opacity: 0.75,
      },
    },
    { selector: "edge[?risky]", style: { "line-color": "#d93025", "target-arrow-color": "#d93025" } },
    // A bridge crossing (value deposited on one chain, delivered on another): dotted, named by the protocol and
    // the chains.
    {
      selector: "edge[?crossing]",
      style: {
        "line-style": "dotted",
        "line-color": "#00796b",
        "target-arrow-color": "#00796b",
        "curve-style": "bezier",
        label: "data(via)",
        "font-size": 9,
        color: "#004d40",
        "text-rotation": "autorotate",
        "text-background-color": "#ffffff",
        "text-background-opacity": 0.8,
      },
    },
    // A conversion (a swap paid by one address to another, through a DEX's router and pools): dashed, named by
    // the protocol, beside the swap's own transfers through the router.
    {
      selector: "edge[?conversion]",
      style: {
        "line-style": "dashed",
        "line-color": "#8e24aa",
        "target-arrow-color": "#8e24aa",
        "curve-style": "bezier",
        label: "data(via)",
        "font-size": 9,
        color: "#6a1b9a",
        "text-rotation": "autorotate",
        "text-background-color": "#ffffff",
        "text-background-opacity": 0.8,
      },
    },
    // The exposure paths (exposure.ts): the way the money came from (or went to) a risky address, drawn in the
    // sanctioned colour over the whole path, not only on the last edge into the risky address, with a halo that
    // keeps a thin edge visible. Before `.faded`: a pattern's highlight still fades them.
    {
      selector: "node.exposure",
      style: { "underlay-color": "#c5221f", "underlay-padding": 6, "underlay-opacity": 0.35 },
    },
    {
      selector: "edge.exposure",
      style: {
        "line-color": "#a50e0e",
        "target-arrow-color": "#a50e0e",
        "underlay-color": "#c5221f",
        "underlay-padding": 3,
        "underlay-opacity": 0.25,
        opacity: 1,
        "z-index": 4,
      },
    },
    { selector: ".faded", style: { opacity: 0.12 } },
    {
      selector: "node.evidence",
      style: { "underlay-color": "#d01884", "underlay-padding": 8, "underlay-opacity": 0.45, opacity: 1 },
    },
    {
      selector: "edge.evidence",
      style: { "line-color": "#d01884", "target-arrow-color": "#d01884", opacity: 1, "z-index": 5 },
    },
    {
      selector: ":selected",
      style: { "underlay-color": "#1a73e8", "underlay-padding": 8, "underlay-opacity": 0.5 },
    },
  ];
}

/**
 * cytoscape adds a <style> element for its container unless an element with its id exists; the page's
 * Content-Security-Policy (style-src 'self') refuses inline styles, so the rule is in viewer.css instead and a
 * placeholder with that id keeps cytoscape from trying.
 */
function preventInlineStylesheet(): void {
  const id = "__________cytoscape_stylesheet";
  if (document.getElementById(id)) return;
  const placeholder = document.createElement("meta");
  placeholder.id = id;
  document.head.append(placeholder);
}

export class GraphView {
  readonly cy: cytoscape.Core;
  private readonly layout = new RingLayout();
  private readonly adjacency = new Map<string, Set<string>>();
  /** Fit the view to the graph after each layer until the officer pans or zooms themselves. */
  private follow = true;
  private large = false;
  private addressLabels = true;
  private readonly listening = new AbortController();

  constructor(
    private readonly container: HTMLElement,
    private readonly onSelect: (selection: Selection | undefined) => void,
  ) {
    preventInlineStylesheet();
    this.cy = cytoscape({
      container,
      style: styles(),
      layout: { name: "preset" },
      minZoom: 0.02,
      maxZoom: 4,
      wheelSensitivity: 0.3,
      boxSelectionEnabled: false,
      // Elements are placed by RingLayout; cytoscape only draws.
      autoungrabify: false,
    });
    this.cy.on("tap", "node", (event) => this.onSelect({ kind: "node", id: event.target.id() }));
    this.cy.on("tap", "edge", (event) => this.onSelect({ kind: "edge", id: event.target.id() }));
    this.cy.on("tap", (event) => {
      if (event.target === this.cy) this.onSelect(undefined);
    });
    // A wheel, drag or pinch by the officer: stop re-fitting under their hands.
    for (const type of ["wheel", "mousedown", "touchstart"]) {
      container.addEventListener(type, () => (this.follow = false), {
        passive: true,
        signal: this.listening.signal,
      });
    }
    this.updateCounts(0);
    this.setExposure(new Set(), new Set());
  }

  /** Adds what a layer brought, re-weights every edge, and fits the view (while following). */
  apply(change: LayerChange, allEdges: Iterable<EdgeState>, nodes: Map<string, NodeState>): void {
    for (const edge of change.addedEdges) {
      this.link(edge.from, edge.to);
    }
    const added = new Set(change.addedNodes.map((n) => n.address));
    const placed = this.layout.add(
      change.addedNodes.map((n) => ({ id: n.address, depth: n.depth })),
      (id) => this.adjacency.get(id) ?? [],
    );
    const weights = edgeWeights(allEdges);
    const width = (id: string) => 1 + 7 * (weights.get(id) ?? 0);
    const cy = this.cy;
    // The cheap edge style is chosen before the new edges exist, so that only the earlier ones are restyled.
    const large = cy.edges().length + change.addedEdges.length > LARGE_GRAPH_EDGES;
    if (large !== this.large) {
      this.large = large;
      cy.style()
        .selector("edge")
        .style({
          "curve-style": large ? "haystack" : "straight",
          "target-arrow-shape": large ? "none" : "triangle",
        })
        .update();
    }
    const addressLabels = nodes.size <= ADDRESS_LABELS_UP_TO;
    // Everything in one batch and one `add`: cytoscape restyles and redraws once. Element lookups are kept to the
    // nodes and edges that changed (each lookup allocates a collection: thousands of them cost a second).
    cy.batch(() => {
      cy.nodes(".fresh").removeClass("fresh");
      // Weights are relative to the largest edge, which a new layer can change: earlier edges are re-weighted
      // (only those whose width moved: each change restyles the edge). New edges get theirs when added.
      cy.edges().forEach((edge) => {
        const w = width(edge.id());
        if (Math.abs(edge.data("width") - w) > 0.05) edge.data("width", w);
      });
      // Earlier nodes that a crowded ring moved, and those whose type or label a later layer changed.
      for (const id of placed) {
        if (added.has(id)) continue;
        const p = this.layout.position(id);
        if (p) cy.getElementById(id).position({ ...p });
      }
      for (const n of change.updatedNodes) {
        cy.getElementById(n.address).data({ type: n.type, ...nodeLabel(n, addressLabels) });
      }
      // The graph only grows: once too large for address labels, it stays so.
      if (!addressLabels && this.addressLabels) {
        this.addressLabels = false;
        cy.nodes("[!labelled]").data("display", "");
      }
      cy.add([
        ...change.addedNodes.map((n) => ({
          group: "nodes" as const,
          data: { id: n.address, type: n.type, root: n.isRoot, ...nodeLabel(n, addressLabels) },
          position: { ...(this.layout.position(n.address) ?? { x: 0, y: 0 }) },
          classes: n.layer > 0 ? "fresh" : "",
        })),
        ...change.addedEdges.map((e) => ({
          group: "edges" as const,
          data: {
            id: e.id,
            source: e.from,
            target: e.to,
            width: width(e.id),
            risky: RISKY_TYPES.has(nodes.get(e.to)?.type ?? "unknown"),
            ...(e.conversion
              ? { conversion: true, via: t("viewer.conversion_via", { via: e.conversion.via.join(", ") }) }
              : {}),
            ...(e.bridge
              ? {
                  crossing: true,
                  via: t("viewer.bridge_via", {
                    protocol: e.bridge.protocol,
                    from: String(e.bridge.fromChainId),
                    to: String(e.bridge.toChainId),
                  }),
                }
              : {}),
          },
        })),
      ]);
    });
    if (this.follow) this.fitAll();
    this.updateCounts(nodes.size);
  }

  destroy(): void {
    this.listening.abort();
    this.cy.destroy();
  }

  /** Re-fits the view and follows the growth again. */
  fit(): void {
    this.follow = true;
    this.fitAll();
  }

  /**
   * Fits the whole graph, but never zooms a small graph in past life size (huge nodes help nobody). From the
   * layout's own bounds: cytoscape's fit measures every label's text first, over a second at 5,000 nodes.
   */
  private fitAll(): void {
    const bounds = this.layout.bounds();
    if (!bounds) return;
    const margin = 40; // half the root's size plus its label, around the outermost nodes
    const padding = 30;
    const width = Math.max(1, this.cy.width() - 2 * padding);
    const height = Math.max(1, this.cy.height() - 2 * padding);
    const zoom = Math.min(
      1.2,
      Math.max(
        this.cy.minZoom(),
        Math.min(width / (bounds.x2 - bounds.x1 + 2 * margin), height / (bounds.y2 - bounds.y1 + 2 * margin)),
      ),
    );
    this.cy.viewport({
      zoom,
      pan: {
        x: this.cy.width() / 2 - (zoom * (bounds.x1 + bounds.x2)) / 2,
        y: this.cy.height() / 2 - (zoom * (bounds.y1 + bounds.y2)) / 2,
      },
    });
  }

  /** Highlights a pattern's evidence (wallets and the edges between them); undefined clears it. */
  highlight(wallets: string[] | undefined): number {
    const cy = this.cy;
    let found = 0;
    cy.batch(() => {
      cy.elements().removeClass("evidence faded");
      if (!wallets || wallets.length === 0) return;
      const set = new Set(wallets.map((w) => w.toLowerCase()));
      const nodes = cy.nodes().filter((n) => set.has(n.id()));
      found = nodes.length;
      if (found === 0) return;
      cy.elements().addClass("faded");
      nodes.removeClass("faded").addClass("evidence");
      nodes.edgesWith(nodes).removeClass("faded").addClass("evidence");
    });
    if (found > 0) cy.animate({ fit: { eles: cy.nodes(".evidence"), padding: 60 }, duration: 300 });
    return found;
  }

  /**
   * Draws these nodes and edges as the exposure paths (and no others): called after every layer, since a deeper
   * layer can bring a path's far end into the graph or change which exposure the score rests on.
   */
  setExposure(nodes: ReadonlySet<string>, edges: ReadonlySet<string>): void {
    const cy = this.cy;
    cy.batch(() => {
      cy.elements(".exposure").removeClass("exposure");
      for (const id of [...nodes, ...edges]) cy.getElementById(id).addClass("exposure");
    });
    this.container.dataset.exposureNodes = String(cy.nodes(".exposure").length);
    this.container.dataset.exposureEdges = String(cy.edges(".exposure").length);
  }

  /** Centres the view on one node, selects it and shows its details. */
  focus(address: string): boolean {
    const node = this.cy.getElementById(address.toLowerCase());
    if (node.empty()) return false;
    this.follow = false;
    this.cy.elements().unselect();
    node.select();
    this.onSelect({ kind: "node", id: node.id() });
    this.cy.animate({ center: { eles: node }, zoom: Math.max(this.cy.zoom(), 1.2), duration: 300 });
    return true;
  }

  /** Selects an edge and shows its details (from a list of transfers: the view stays where the officer put it). */
  selectEdge(id: string): boolean {
    const edge = this.cy.getElementById(id);
    if (edge.empty() || !edge.isEdge()) return false;
    this.cy.elements().unselect();
    edge.select();
    this.onSelect({ kind: "edge", id });
    return true;
  }

  private link(a: string, b: string): void {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = this.adjacency.get(x);
      if (!set) {
        set = new Set();
        this.adjacency.set(x, set);
      }
      set.add(y);
    }
  }

  private updateCounts(nodeCount: number): void {
    this.container.dataset.nodeCount = String(this.cy.nodes().length);
    this.container.dataset.edgeCount = String(this.cy.edges().length);
    this.container.dataset.conversionEdgeCount = String(this.cy.edges("[?conversion]").length);
    this.container.dataset.bridgeEdgeCount = String(this.cy.edges("[?crossing]").length);
    this.container.dataset.modelNodeCount = String(nodeCount);
  }
}
