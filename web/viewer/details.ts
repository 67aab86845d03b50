// The details of the selected node or edge, in the panel beside the graph (fixed on the screen, so it is in view
// wherever the page is scrolled): a node's label and where the label comes from, and its transfers with its
// counterparties in the graph; an edge's transfers. Each transfer shows its date, amount, USD value and
// transaction hash, the hash a link to the chain's explorer when the chain registry names one.
import { h } from "./dom.ts";
import { addressUrl, formatAmount, formatDate, txUrl } from "./format.ts";
import { shortAddress } from "./graph-view.ts";
import {
  describeEdge,
  type EdgeState,
  formatUsd,
  type InvestigationGraph,
  type NodeState,
  type Transfer,
} from "./model.ts";
import { LOOK } from "./palette.ts";
import { swatch } from "./panels.ts";

/** A table this long is read, not scanned: past it the officer is told how many more there are. */
const MAX_ROWS = 100;

export interface DetailsContext {
  /** the chain's explorer (http(s), no trailing slash), when the registry names one */
  explorer: string | undefined;
  showNode(address: string): void;
  showEdge(id: string): void;
}

export function renderNodeDetails(
  panel: HTMLElement,
  node: NodeState,
  graph: InvestigationGraph,
  ctx: DetailsContext,
): void {
  let outgoing = 0;
  let incoming = 0;
  const transfers: { transfer: Transfer; edge: EdgeState }[] = [];
  for (const e of graph.edges.values()) {
    if (e.from !== node.address && e.to !== node.address) continue;
    if (e.from === node.address) outgoing++;
    if (e.to === node.address) incoming++;
    for (const transfer of e.transfers) transfers.push({ transfer, edge: e });
  }
  transfers.sort((a, b) => (a.transfer.timestamp ?? "").localeCompare(b.transfer.timestamp ?? ""));
  const explorerLink = addressUrl(ctx.explorer, node.address);
  panel.dataset.kind = "node";
  panel.dataset.id = node.address;
  panel.replaceChildren(
    h("h3", { id: "details-title" }, node.label ?? "Address", node.isRoot ? " (investigated address)" : ""),
    h(
      "dl",
      {},
      h("dt", {}, "Address"),
      h(
        "dd",
        {},
        h("code", { class: "selectable" }, node.address),
        explorerLink ? h("br") : null,
        explorerLink ? external(explorerLink, "Open in the explorer") : null,
      ),
      h("dt", {}, "Type"),
      h("dd", {}, swatch(node.type), ` ${LOOK[node.type].name}`),
      h("dt", {}, "Label"),
      h("dd", { class: "label" }, node.label ?? "none"),
      node.label ? h("dt", {}, "Label source") : null,
      node.label ? h("dd", { class: "label-source" }, labelSource(node)) : null,
      node.category ? h("dt", {}, "Category") : null,
      node.category ? h("dd", {}, node.category) : null,
      h("dt", {}, "Hops from the root"),
      h("dd", {}, node.depth),
      h("dt", {}, "Counterparties"),
      h("dd", {}, `${outgoing} sent to, ${incoming} received from`),
    ),
    h("h4", {}, `Transfers with its counterparties in the graph (${transfers.length})`),
    transferTable(
      transfers.map(({ transfer, edge }) => {
        const sent = transfer.from === node.address;
        const other = sent ? transfer.to : transfer.from;
        const name = graph.nodes.get(other)?.label ?? shortAddress(other);
        return {
          transfer,
          who: h(
            "button",
            {
              type: "button",
              class: "link",
              title: "Show the transfers between them",
              onclick: () => ctx.showEdge(edge.id),
            },
            `${sent ? "to" : "from"} ${name}`,
          ),
        };
      }),
      ctx,
      "Counterparty",
    ),
  );
}

export function renderEdgeDetails(
  panel: HTMLElement,
  edge: EdgeState,
  graph: InvestigationGraph,
  ctx: DetailsContext,
): void {
  const name = (address: string) => graph.nodes.get(address)?.label ?? shortAddress(address);
  const end = (address: string) =>
    h(
      "dd",
      {},
      h(
        "button",
        { type: "button", class: "link", title: "Show this address", onclick: () => ctx.showNode(address) },
        name(address),
      ),
      h("br"),
      h("code", { class: "selectable" }, address),
    );
  const transfers = [...edge.transfers].sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? ""));
  panel.dataset.kind = "edge";
  panel.dataset.id = edge.id;
  panel.replaceChildren(
    h("h3", { id: "details-title" }, `${name(edge.from)} → ${name(edge.to)}`),
    h("p", {}, describeEdge(edge)),
    h("dl", {}, h("dt", {}, "From"), end(edge.from), h("dt", {}, "To"), end(edge.to)),
    h("h4", {}, `Transfers along this edge (${transfers.length})`),
    transferTable(
      transfers.map((transfer) => ({ transfer })),
      ctx,
    ),
  );
}

/** Where a node's label comes from, in words. */
function labelSource(node: NodeState): string {
  if (node.inferred) {
    return "Inferred by Vigía, not from a label set: this address forwards what it receives to the exchange's labelled wallets, as an exchange deposit address does";
  }
  return node.labelSource ? `Label set "${node.labelSource}"` : "Not given by the service";
}

/**
 * One transfer per two rows: date, counterparty, amount and USD on the first, the transaction hash in full on the
 * second (a 66-character hash in a column of its own made the table wider than the panel).
 */
function transferTable(
  rows: { transfer: Transfer; who?: HTMLElement }[],
  ctx: DetailsContext,
  whoHeading?: string,
): HTMLElement {
  if (rows.length === 0) return h("p", { class: "muted" }, "No transfers in the graph.");
  const shown = rows.slice(0, MAX_ROWS);
  const columns = whoHeading ? 4 : 3;
  const table = h(
    "table",
    { class: "transfers" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Date (UTC)"),
        whoHeading ? h("th", { scope: "col" }, whoHeading) : null,
        h("th", { scope: "col" }, "Amount"),
        h("th", { scope: "col" }, "USD"),
      ),
    ),
    h(
      "tbody",
      {},
      ...shown.flatMap(({ transfer: t, who }) => {
        const link = txUrl(ctx.explorer, t.txHash);
        const hash = t.txHash ? h("code", { class: "selectable" }, t.txHash) : h("span", {}, "no hash");
        return [
          h(
            "tr",
            { class: "transfer" },
            h("td", { class: "date" }, formatDate(t.timestamp).replace(" UTC", "")),
            whoHeading ? h("td", {}, who ?? null) : null,
            h("td", { class: "amount" }, formatAmount(t.value, t.decimals, t.symbol)),
            h("td", { class: "usd" }, t.usd === null ? "not priced" : formatUsd(t.usd)),
          ),
          h(
            "tr",
            { class: "tx-row" },
            h(
              "td",
              { class: "tx", colspan: columns },
              "Tx ",
              link ? external(link, hash, "Open the transaction in the explorer") : hash,
            ),
          ),
        ];
      }),
    ),
  );
  return rows.length > shown.length
    ? h("div", {}, table, h("p", { class: "muted" }, `and ${rows.length - shown.length} more`))
    : table;
}

/** A link to another site: a new tab, no referrer, no access back to this page (which holds the API key). */
function external(href: string, content: string | HTMLElement, title?: string): HTMLAnchorElement {
  return h("a", { href, target: "_blank", rel: "noopener noreferrer", title }, content);
}
