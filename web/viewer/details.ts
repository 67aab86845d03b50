// The details of the selected node or edge, in the panel beside the graph (fixed on the screen, so it is in view
// wherever the page is scrolled): a node's label and where the label comes from, and its transfers with its
// counterparties in the graph; an edge's transfers. Each transfer shows its date, amount, USD value and
// transaction hash, the hash a link to the chain's explorer when the chain registry names one.
import { h } from "./dom.ts";
import { addressUrl, formatAmount, formatDate, txUrl } from "./format.ts";
import { shortAddress } from "./graph-view.ts";
import { currentTimeZone, t, tOptional } from "./i18n.ts";
import {
  describeBridge,
  describeConversion,
  describeEdge,
  type EdgeState,
  formatUsd,
  type InvestigationGraph,
  type NodeState,
  type Transfer,
} from "./model.ts";
import { typeName } from "./palette.ts";
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
    h(
      "h3",
      { id: "details-title" },
      node.label ?? t("viewer.details.address"),
      node.isRoot ? t("viewer.details.root") : "",
    ),
    h(
      "dl",
      {},
      h("dt", {}, t("viewer.details.address")),
      h(
        "dd",
        {},
        h("code", { class: "selectable" }, node.address),
        explorerLink ? h("br") : null,
        explorerLink ? external(explorerLink, t("viewer.details.explorer")) : null,
      ),
      h("dt", {}, t("viewer.details.type")),
      h("dd", {}, swatch(node.type), ` ${typeName(node.type)}`),
      h("dt", {}, t("viewer.details.label")),
      h("dd", { class: "label" }, node.label ?? t("viewer.details.none")),
      node.label ? h("dt", {}, t("viewer.details.label_source")) : null,
      node.label ? h("dd", { class: "label-source" }, labelSource(node)) : null,
      node.category ? h("dt", {}, t("viewer.details.category")) : null,
      node.category ? h("dd", {}, tOptional(`category.${node.category}`) ?? node.category) : null,
      h("dt", {}, t("viewer.details.hops")),
      h("dd", {}, node.depth),
      h("dt", {}, t("viewer.details.counterparties")),
      h("dd", {}, t("viewer.details.counterparty_counts", { sent: outgoing, received: incoming })),
    ),
    h("h4", {}, t("viewer.details.node_transfers", { count: transfers.length })),
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
              title: t("viewer.details.show_edge"),
              onclick: () => ctx.showEdge(edge.id),
            },
            sent ? t("viewer.details.to", { name }) : t("viewer.details.from", { name }),
          ),
        };
      }),
      ctx,
      t("viewer.details.counterparty"),
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
        {
          type: "button",
          class: "link",
          title: t("viewer.details.show_node"),
          onclick: () => ctx.showNode(address),
        },
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
    ...(edge.conversion ? [h("p", { class: "conversion" }, describeConversion(edge.conversion))] : []),
    ...(edge.bridge ? [h("p", { class: "bridge" }, describeBridge(edge.bridge))] : []),
    h(
      "dl",
      {},
      h("dt", {}, t("viewer.details.edge_from")),
      end(edge.from),
      h("dt", {}, t("viewer.details.edge_to")),
      end(edge.to),
    ),
    h("h4", {}, t("viewer.details.edge_transfers", { count: transfers.length })),
    transferTable(
      transfers.map((transfer) => ({ transfer })),
      ctx,
    ),
  );
}

/** Where a node's label comes from, in words. */
function labelSource(node: NodeState): string {
  if (node.inferred) {
    return t("viewer.details.inferred");
  }
  return node.labelSource
    ? t("viewer.details.label_set", { source: node.labelSource })
    : t("viewer.details.no_source");
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
  if (rows.length === 0) return h("p", { class: "muted" }, t("viewer.details.no_transfers"));
  const notPriced = t("viewer.details.not_priced");
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
        h("th", { scope: "col" }, t("viewer.details.date", { zone: currentTimeZone() })),
        whoHeading ? h("th", { scope: "col" }, whoHeading) : null,
        h("th", { scope: "col" }, t("viewer.details.amount")),
        h("th", { scope: "col" }, t("viewer.details.usd")),
      ),
    ),
    h(
      "tbody",
      {},
      ...shown.flatMap(({ transfer: tr, who }) => {
        const link = txUrl(ctx.explorer, tr.txHash);
        const hash = tr.txHash
          ? h("code", { class: "selectable" }, tr.txHash)
          : h("span", {}, t("viewer.details.no_hash"));
        return [
          h(
            "tr",
            { class: "transfer" },
            h("td", { class: "date" }, formatDate(tr.timestamp).replace(` ${currentTimeZone()}`, "")),
            whoHeading ? h("td", {}, who ?? null) : null,
            h("td", { class: "amount" }, formatAmount(tr.value, tr.decimals, tr.symbol)),
            h("td", { class: "usd" }, tr.usd === null ? notPriced : formatUsd(tr.usd)),
          ),
          h(
            "tr",
            { class: "tx-row" },
            h(
              "td",
              { class: "tx", colspan: columns },
              t("viewer.details.tx"),
              link ? external(link, hash, t("viewer.details.open_tx")) : hash,
            ),
          ),
        ];
      }),
    ),
  );
  return rows.length > shown.length
    ? h(
        "div",
        {},
        table,
        h("p", { class: "muted" }, t("viewer.and_more", { count: rows.length - shown.length })),
      )
    : table;
}

/** A link to another site: a new tab, no referrer, no access back to this page (which holds the API key). */
function external(href: string, content: string | HTMLElement, title?: string): HTMLAnchorElement {
  return h("a", { href, target: "_blank", rel: "noopener noreferrer", title }, content);
}
