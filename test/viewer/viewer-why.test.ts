// The investigation viewer says why, in headless Chromium on the devnet world (the real service on 127.0.0.1, its
// layer jobs running, incremental investigations created through the API and opened in the page):
//  - the sanctioned address three hops upstream of the devnet's third sanctions case: the exposure path the score
//    rests on is drawn emphasised, exactly its edges and nodes, in the exposure colour (not the grey of other
//    edges), listed in the direction the money moved; the sanctioned node clicked on the canvas shows its label,
//    the label's source and its transfers (date, amount, USD, the hash linking to the explorer) in a panel within
//    the window, also with the page scrolled to its end;
//  - the peel chain case: the one level badge is the layer's riskLevel (no pattern card carries a "HIGH" of its
//    own), the score list uses the API's levels, the rule is in words ("each hop forwards at least 80% of what it
//    receives") with the detector's parameters behind a toggle, an inferred node's label says it is inferred.
// Runs on PGlite, and on PostgreSQL with DATABASE_URL. Screenshots in test-artifacts/.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetWorld } from "../../src/worlds/index.ts";
import { chromiumAvailable, type HeadlessBrowser } from "../support/browser.ts";
import { onPostgres } from "../support/database.ts";
import { LOCAL_CHAINS, type TestService } from "../support/service.ts";
import { clickNode, drawnElements, isSessionProbe, openInvestigation, withinWindow } from "./viewer-page.ts";
import { startViewerWorld, type ViewerWorld } from "./viewer-world.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts");
const MAX_DEPTH = 4;
const GREY = "rgb(154,164,174)"; // graph-view.ts: an ordinary edge
const EXPOSURE_EDGE = "rgb(165,14,14)";
const EXPOSURE_HALO = "rgb(197,34,31)";
const EXPLORER = LOCAL_CHAINS.find((c) => c.id === 1)!.explorer_url!;
const runnable = chromiumAvailable() || Boolean(process.env.CI);
if (!runnable) console.warn("viewer-why: /usr/bin/chromium is missing (apt-get install chromium): skipped");

interface Layer {
  riskScore: number;
  riskLevel: string;
  exposure: {
    category: string;
    direction: string;
    hops: number;
    counterparties: { address: string; label?: string }[];
    via: string[];
    txHashes: string[];
    drivesScore: boolean;
  }[];
  cumulativeGraph: {
    rootAddress: string;
    nodes: Record<string, { label?: string; labelSource?: string; inferred?: true }>;
    edges: { from: string; to: string; txHash: string; usd: number | null }[];
  };
}

let svc: TestService;
let url: string;
let browser: HeadlessBrowser;
const world = devnetWorld();

describe.runIf(runnable)("the investigation viewer says why", () => {
  let viewer: ViewerWorld;
  beforeAll(async () => {
    viewer = await startViewerWorld();
    ({ svc, url, browser } = viewer);
  }, 90_000);
  afterAll(async () => {
    await viewer?.stop();
  });

  const api = (method: "GET" | "POST", apiPath: string, body?: object) => viewer.api(method, apiPath, body);

  /** An incremental investigation of the case's subject, opened in a new page and drawn to the end. */
  async function investigate(caseId: string): Promise<{ page: Page; final: Layer; problems: string[] }> {
    const subject = world.cases.find((c) => c.id === caseId)!.subject;
    const created = await api("POST", `/v1/projects/${svc.project.id}/investigations`, {
      name: `Viewer test: ${caseId}`,
      wallet: subject,
      incremental: true,
      maxDepth: MAX_DEPTH,
    });
    const page = await browser.context.newPage();
    const problems: string[] = [];
    // The page asks whether a person is signed in (GET /auth/session answers 401 when nobody is): expected.
    page.on(
      "console",
      (m) => m.type() === "error" && !isSessionProbe(m.location().url) && problems.push(m.text()),
    );
    page.on("pageerror", (e) => problems.push(e.message));
    await openInvestigation(
      page,
      url,
      { investigation: String(created.id), project: svc.project.id },
      svc.project.keys.viewer,
    );
    const record = await api("GET", `/v1/projects/${svc.project.id}/investigations/${created.id}`);
    const final = (await api(
      "GET",
      `/v1/analysis/${record.analysis_id}/layers/${MAX_DEPTH - 1}`,
    )) as unknown as Layer;
    return { page, final, problems };
  }

  const screenshot = (page: Page, name: string) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    return page.screenshot({
      path: path.join(ARTIFACTS, `${name}-${onPostgres ? "postgres" : "pglite"}.png`),
    });
  };

  it("draws the exposure path from a sanctioned address three hops away, and shows a node's label, its source and its transfers", async () => {
    const { page, final, problems } = await investigate("demo-sanctions-d3");
    const graph = final.cumulativeGraph;
    const root = graph.rootAddress;

    // The API: the score rests on funds received from the sanctioned address, three hops upstream.
    const path3 = final.exposure.find((e) => e.drivesScore)!;
    expect(path3).toMatchObject({ category: "sanctioned", direction: "incoming", hops: 3 });
    const sanctioned = path3.counterparties[0]!.address;
    const hop1 = world.cases.find((c) => c.id === "demo-sanctions-d1")!.subject;
    const hop2 = world.cases.find((c) => c.id === "demo-sanctions-d2")!.subject;
    expect([...path3.via].sort()).toEqual([hop1, hop2].sort());
    const pathEdges = new Set(
      graph.edges.filter((e) => path3.txHashes.includes(e.txHash)).map((e) => `${e.from}->${e.to}`),
    );
    expect(pathEdges).toEqual(new Set([`${sanctioned}->${hop1}`, `${hop1}->${hop2}`, `${hop2}->${root}`]));

    // The page draws exactly that path emphasised: its edges in the exposure colour, its nodes with a halo.
    const drawn = await drawnElements(page);
    const emphasised = drawn.filter((e) => e.classes.includes("exposure"));
    expect(new Set(emphasised.filter((e) => e.group === "edges").map((e) => e.id))).toEqual(pathEdges);
    expect(new Set(emphasised.filter((e) => e.group === "nodes").map((e) => e.id))).toEqual(
      new Set([sanctioned, hop1, hop2, root]),
    );
    for (const e of emphasised) {
      expect(e.color, e.id).toBe(e.group === "edges" ? EXPOSURE_EDGE : EXPOSURE_HALO);
      expect(e.halo, e.id).toBeGreaterThan(0);
    }
    expect(
      drawn
        .filter((e) => e.group === "edges" && !pathEdges.has(e.id))
        .every((e) => e.color !== EXPOSURE_EDGE),
    ).toBe(true);
    expect(
      drawn.filter((e) => e.group === "edges" && pathEdges.has(e.id)).every((e) => e.color !== GREY),
    ).toBe(true);
    expect(await page.getAttribute("#graph", "data-exposure-edges")).toBe("3");
    expect(await page.getAttribute("#graph", "data-exposure-nodes")).toBe("4");

    // The exposure panel says it, in the direction the money moved, and highlights it like a pattern's evidence.
    const card = page.locator('#exposure-list [data-drives-score="true"]');
    expect(await card.count()).toBe(1);
    expect(await card.getAttribute("data-category")).toBe("sanctioned");
    expect(await card.locator("p").first().textContent()).toMatch(
      /^Received \$[\d,.]+ \([\d.]+% of its incoming funds\) from a sanctioned address 3 hops away · the score rests on this$/,
    );
    expect(
      await card.locator("ol.path li").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-address"))),
    ).toEqual([sanctioned, hop1, hop2, root]);
    await card.getByRole("button", { name: "Highlight in graph" }).click();
    expect(await card.locator(".evidence-status").textContent()).toBe("4 highlighted");
    await card.getByRole("button", { name: "Clear" }).click();

    // The level badge is the layer's level.
    expect(await page.textContent("#score-level")).toBe(final.riskLevel);
    expect(final.riskLevel).toBe("critical");

    // The sanctioned node, clicked where it is drawn: its label, the label's source, its transfers.
    await clickNode(page, sanctioned);
    await page.waitForSelector("#details-panel:not([hidden])");
    expect(await page.getAttribute("#details", "data-id")).toBe(sanctioned);
    expect(await withinWindow(page, "#details-panel")).toBe(true);
    expect(await page.evaluate<number>("window.scrollY")).toBe(0);
    const node = graph.nodes[sanctioned]!;
    expect(node.label).toBe(path3.counterparties[0]!.label);
    expect(node.labelSource).toBe("scenario:vigia-devnet");
    expect(await page.textContent("#details .label")).toBe(node.label);
    expect(await page.textContent("#details .label-source")).toBe(`Label set "${node.labelSource}"`);
    const itsEdges = graph.edges.filter((e) => e.from === sanctioned || e.to === sanctioned);
    const rows = page.locator("#details table.transfers tr.transfer");
    expect(await rows.count()).toBe(itsEdges.length);
    const first = rows.first();
    expect(await first.locator("td.date").textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(await first.locator("td.amount").textContent()).toMatch(/^[\d,]+(\.\d{1,6})? ETH$/);
    expect(await first.locator("td.usd").textContent()).toMatch(/^\$[\d,]+\.\d\d$/);
    const tx = page.locator("#details table.transfers tr.tx-row").first();
    const hash = (await tx.locator("td.tx code").textContent())!;
    expect(itsEdges.map((e) => e.txHash)).toContain(hash);
    expect(await tx.locator("td.tx a").getAttribute("href")).toBe(`${EXPLORER}/tx/${hash}`);
    expect(await tx.locator("td.tx a").getAttribute("rel")).toBe("noopener noreferrer");

    // Along the edge: the counterparty's button shows the transfers between the two.
    await first.getByRole("button").click();
    expect(await page.getAttribute("#details", "data-kind")).toBe("edge");
    expect(await page.textContent("#details h4")).toBe("Transfers along this edge (1)");
    expect(await page.locator(`#details a[href="${EXPLORER}/tx/${hash}"]`).count()).toBe(1);

    // Scrolled to the end of the page, the details of an address picked from a list are still in the window.
    await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
    expect(await page.evaluate<number>("window.scrollY")).toBeGreaterThan(0);
    await page.locator("#notable button").first().click();
    expect(await page.getAttribute("#details", "data-id")).toBe(root);
    expect(await withinWindow(page, "#details-panel")).toBe(true);
    await screenshot(page, "viewer-why-sanctions");
    await page.keyboard.press("Escape");
    expect(await page.locator("#details-panel").isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("shows the score's level as the one badge, and each pattern's rule in words with its parameters behind a toggle", async () => {
    const { page, final, problems } = await investigate("demo-peel_chain");
    const graph = final.cumulativeGraph;

    // One level on the page: the layer's, beside the score; the pattern names its severity in words.
    expect(await page.locator(".level-badge").count()).toBe(1);
    expect(await page.textContent("#score-level")).toBe(final.riskLevel);
    expect(await page.locator(".badge").count()).toBe(0);
    const card = page.locator('#patterns-now [data-pattern="peel_chain"]');
    expect(await card.locator(".meta").textContent()).toMatch(/^detector severity high, confidence \d+%$/);
    expect(await page.locator("#score-list li").last().textContent()).toBe(
      `Layer ${MAX_DEPTH - 1}: ${final.riskScore} (${final.riskLevel}), final`,
    );

    // The rule in words; the raw parameters one click away.
    expect(await card.locator(".rule").textContent()).toContain(
      "each hop forwards at least 80% of what it receives to a fresh or once-used address and peels off at most 20% to another address, each hop within 7 days of the one before.",
    );
    const parameters = card.locator("details.parameters");
    expect(await parameters.getAttribute("open")).toBeNull();
    expect(await parameters.locator("dl").isVisible()).toBe(false);
    await parameters.locator("summary").click();
    expect(await parameters.locator("dl").isVisible()).toBe(true);
    expect(await parameters.locator("dl").textContent()).toContain("minForwardFraction0.8");

    // Exposure to exchanges is listed, not drawn as a risk.
    expect(final.exposure.some((e) => e.category === "exchange" && !e.drivesScore)).toBe(true);
    expect(Number(await page.getAttribute("#exposure-list", "data-count"))).toBe(final.exposure.length);
    expect(await page.locator("#exposure-list .exposure-path.emphasised").count()).toBe(0);
    expect(await page.getAttribute("#graph", "data-exposure-edges")).toBe("0");

    // An inferred exchange deposit address: its label says the service inferred it.
    const [deposit] = Object.entries(graph.nodes).find(([, n]) => n.inferred)!;
    await clickNode(page, deposit);
    await page.waitForSelector("#details-panel:not([hidden])");
    expect(await page.getAttribute("#details", "data-id")).toBe(deposit);
    expect(await withinWindow(page, "#details-panel")).toBe(true);
    expect(await page.textContent("#details .label-source")).toMatch(
      /^Inferred by Vigía, not from a label set/,
    );
    expect(await page.locator("#details table.transfers tr.transfer").count()).toBe(
      graph.edges.filter((e) => e.from === deposit || e.to === deposit).length,
    );
    await screenshot(page, "viewer-why-peel");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("draws a swap paid by a sanctioned address as a conversion, named by its pool, beside the swap's transfers", async () => {
    const { page, final, problems } = await investigate("demo-swap-d1");
    const graph = final.cumulativeGraph;
    const sanctioned = world.accounts.get("sanctioned.lazarus")!.address;
    const conversions = (
      graph.edges as { from: string; to: string; conversion?: { via: string[] } }[]
    ).filter((e) => e.conversion);
    expect(conversions).toMatchObject([
      { from: sanctioned, to: graph.rootAddress, conversion: { via: ["DemoSwap: ETH/USDV pool (devnet)"] } },
    ]);
    expect(final.riskLevel).toBe("critical");
    expect(await page.getAttribute("#graph", "data-conversion-edge-count")).toBe("1");
    // Selected, the edge says what was given and received, and through what.
    await page.evaluate(`(() => {
      const cy = document.getElementById("graph")._cyreg.cy;
      cy.edges("[?conversion]")[0].emit("tap");
    })()`);
    await page.waitForSelector("#details-panel:not([hidden])");
    expect(await page.textContent("#details p.conversion")).toMatch(
      /^Converted via DemoSwap: ETH\/USDV pool \(devnet\): .* ETH .* given, .* USDV .* received\.$/,
    );
    await screenshot(page, "viewer-why-swap");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
