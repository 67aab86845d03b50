// The exposure beside the graph: each exposure of the root after the latest layer (docs/api.md, "Exposure
// paths") in words, with its path from the labelled address to the root (or the other way for funds sent), which
// one the score rests on, and a button that highlights it in the graph as a pattern's evidence is highlighted.
// The risky paths are drawn emphasised all the time (graph-view.ts setExposure); this panel says what they are.
import { h } from "./dom.ts";
import { describeExposure, isEmphasised, pathInOrder } from "./exposure.ts";
import { shortAddress } from "./graph-view.ts";
import { t } from "./i18n.ts";
import type { InvestigationGraph } from "./model.ts";
import type { PanelActions } from "./panels.ts";
import type { ExposurePath } from "./types.ts";

export function renderExposure(list: HTMLElement, graph: InvestigationGraph, actions: PanelActions): void {
  const latest = graph.latest;
  const root = graph.rootAddress;
  const paths = latest?.exposure ?? [];
  list.dataset.count = String(paths.length);
  if (!latest || !root || paths.length === 0) {
    list.replaceChildren(
      h("p", { class: "empty" }, latest ? t("viewer.no_exposure") : t("viewer.waiting_first")),
    );
    return;
  }
  list.replaceChildren(...paths.map((path) => card(path, root, graph, actions)));
}

function card(
  path: ExposurePath,
  root: string,
  graph: InvestigationGraph,
  actions: PanelActions,
): HTMLElement {
  const order = pathInOrder(path, root, graph.nodes);
  const name = (address: string) => {
    const node = graph.nodes.get(address);
    if (address === root) return t("viewer.the_root");
    return (
      node?.label ?? path.counterparties.find((c) => c.address === address)?.label ?? shortAddress(address)
    );
  };
  const status = h("span", { class: "evidence-status", role: "status" });
  return h(
    "article",
    {
      class: `exposure-path${isEmphasised(path) ? " emphasised" : ""}`,
      "data-category": path.category,
      "data-direction": path.direction,
      "data-hops": path.hops,
      "data-drives-score": String(path.drivesScore),
    },
    h(
      "p",
      {},
      describeExposure(path),
      path.drivesScore ? h("strong", { class: "drives" }, t("viewer.drives")) : null,
    ),
    h(
      "ol",
      { class: "path", "aria-label": t("viewer.money_path") },
      ...order.map((address) =>
        h(
          "li",
          { "data-address": address },
          h(
            "button",
            { type: "button", class: "link", title: address, onclick: () => actions.focus(address) },
            name(address),
          ),
        ),
      ),
    ),
    path.via.length > 1 || path.counterparties.length > 1
      ? h(
          "p",
          { class: "muted" },
          t("viewer.path_counts", {
            labelled: path.counterparties.length,
            via: path.via.length,
            txs: path.txHashes.length,
          }),
        )
      : null,
    h(
      "div",
      { class: "evidence-actions" },
      h(
        "button",
        {
          type: "button",
          onclick: () => {
            const wallets = [...new Set(order)];
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
          class: "secondary",
          onclick: () => {
            actions.highlight(undefined);
            status.textContent = "";
          },
        },
        t("viewer.clear"),
      ),
      status,
    ),
  );
}
