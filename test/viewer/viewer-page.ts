// Helpers of the viewer's browser tests: open an investigation in the page with a key, read what cytoscape drew
// (its instance is registered on the graph container, `_cyreg`, by cytoscape itself: the page exposes nothing for
// tests), click a node where it is drawn on the canvas (a real tap, not a call into the page), and whether an
// element lies wholly within the browser window.
import type { Page } from "playwright-core";

/**
 * Whether a console message is about the page's question whether a person is signed in (GET /auth/session): its
 * 401 for nobody signed in is logged by Chromium as a failed resource.
 */
export const isSessionProbe = (url: string | undefined) =>
  (url ?? "").split("?")[0]?.endsWith("/auth/session") ?? false;

/** Opens /app/investigations/<id>, types the key in and waits for the analysis to be drawn completely. */
export async function openInvestigation(
  page: Page,
  url: string,
  ids: { investigation: string; project: number },
  key: string,
): Promise<void> {
  await page.goto(`${url}/app/investigations/${ids.investigation}?project=${ids.project}`);
  await page.fill("#key-input", key);
  await page.click("#key-form button[type=submit]");
  await page.waitForSelector('#graph[data-status="completed"]', { timeout: 90_000 });
}

export interface DrawnElement {
  id: string;
  group: "nodes" | "edges";
  classes: string[];
  /** edges: the line colour drawn; nodes: the halo (underlay) colour */
  color: string;
  /** the halo's (underlay's) opacity (0: none) */
  halo: number;
}

/** Every element cytoscape drew, with its classes and the colours its style resolved to. */
export function drawnElements(page: Page): Promise<DrawnElement[]> {
  return page.evaluate<DrawnElement[]>(`(() => {
    const cy = document.getElementById("graph")._cyreg.cy;
    return cy.elements().map((e) => ({
      id: e.id(),
      group: e.group(),
      classes: e.classes(),
      color: e.isEdge() ? e.style("line-color") : e.style("underlay-color"),
      halo: Number(e.style("underlay-opacity")),
    }));
  })()`);
}

/**
 * Clicks a node where the canvas shows it (the page scrolled to its top first: the graph is there) and waits until
 * the details name it. A point outside the window, or covered by another element of the page, is no click a user
 * could make: the view is then centred on the node (as a user would pan) and the click made again, a few times at most.
 */
export async function clickNode(page: Page, address: string): Promise<void> {
  const id = JSON.stringify(address);
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.evaluate("window.scrollTo(0, 0)");
    // A small window may not show the whole graph: the node is scrolled into view (the graph sticks to the top).
    await page.evaluate(`(() => {
      const container = document.getElementById("graph");
      const y = container.getBoundingClientRect().top + container._cyreg.cy.getElementById(${id}).renderedPosition().y;
      if (y > window.innerHeight - 20) window.scrollBy(0, y - window.innerHeight / 2);
    })()`);
    // A highlight or a focus animates the view for 300 ms: the node is where it is drawn once that ends.
    // (Polled from here: the page's CSP refuses the string evaluation waitForFunction would use.)
    const animated = 'document.getElementById("graph")._cyreg.cy.animated()';
    for (let i = 0; i < 100 && (await page.evaluate<boolean>(animated)); i++) await page.waitForTimeout(50);
    const at = await page.evaluate<{ x: number; y: number; clear: boolean }>(`(() => {
      const container = document.getElementById("graph");
      const cy = container._cyreg.cy;
      const node = cy.getElementById(${id});
      const box = container.getBoundingClientRect();
      const p = node.renderedPosition();
      const x = box.left + p.x;
      const y = box.top + p.y;
      const inside = x > box.left + 5 && x < box.right - 5 && y > box.top + 5 && y < box.bottom - 5 &&
        x > 0 && y > 0 && x < window.innerWidth && y < window.innerHeight;
      const hit = inside ? document.elementFromPoint(x, y) : null;
      const clear = hit !== null && container.contains(hit);
      if (!clear) cy.center(node);
      return { x, y, clear };
    })()`);
    if (!at.clear) continue;
    await page.mouse.click(at.x, at.y);
    for (let i = 0; i < 40; i++) {
      if ((await page.getAttribute("#details", "data-id").catch(() => null)) === address) return;
      await page.waitForTimeout(50);
    }
  }
  throw new Error(`the node ${address} could not be clicked where the canvas draws it`);
}

/** Whether the element's box lies wholly within the window (no scrolling needed to read it). */
export async function withinWindow(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const size = page.viewportSize();
  if (!box || !size) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}
