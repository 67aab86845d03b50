// The investigation viewer in headless Chromium: the real service on
// 127.0.0.1 with the devnet world in its store and its layer jobs running, an incremental investigation created
// through the API, the page opened and the API key typed in (a wrong one first: 401 must send the officer back
// to the form with a clear message), then wait for the final layer and check that the graph drawn has exactly the
// final layer's `cumulativeGraph.metadata.totalNodes` nodes and the score chart one point per layer. A screenshot
// is saved in test-artifacts/. Runs on PGlite, and on PostgreSQL with DATABASE_URL. What the page says of why
// (exposure paths, details, levels, rules in words) is tested in viewer-why.test.ts.
//
// Needs Debian's chromium (.ci/run installs it). Without it the test fails in CI and is skipped elsewhere.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetWorld } from "../../src/worlds/index.ts";
import { chromiumAvailable, type HeadlessBrowser, viewerGraphState } from "../support/browser.ts";
import { onPostgres } from "../support/database.ts";
import type { TestService } from "../support/service.ts";
import { isSessionProbe } from "./viewer-page.ts";
import { startViewerWorld, type ViewerWorld } from "./viewer-world.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts");
const MAX_DEPTH = 4;
const runnable = chromiumAvailable() || Boolean(process.env.CI);
if (!runnable)
  console.warn("viewer-browser: /usr/bin/chromium is missing (apt-get install chromium): skipped");

let svc: TestService;
let url: string;
let browser: HeadlessBrowser;
const world = devnetWorld();

describe.runIf(runnable)("investigation viewer in headless Chromium", () => {
  let viewer: ViewerWorld;
  beforeAll(async () => {
    viewer = await startViewerWorld();
    ({ svc, url, browser } = viewer);
  }, 90_000);
  afterAll(async () => {
    await viewer?.stop();
  });

  const api = (method: "GET" | "POST", apiPath: string, body?: object) => viewer.api(method, apiPath, body);

  it("draws the incremental investigation layer by layer up to the final layer's node count", async () => {
    // The peel chain case: the graph grows at every layer and the pattern appears once the chain is long enough.
    const subject = world.cases.find((c) => c.positive && c.pattern === "peel_chain")!.subject;
    const created = await api("POST", `/v1/projects/${svc.project.id}/investigations`, {
      name: "Viewer test: peel chain",
      wallet: subject,
      incremental: true,
      maxDepth: MAX_DEPTH,
    });
    expect(created).toMatchObject({ incremental: true, max_depth: MAX_DEPTH });

    const page = await browser.context.newPage();
    // Every node count the graph reports, in order: the growth layer by layer.
    await page.addInitScript({
      content: `window.__nodeCounts = [];
        document.addEventListener("DOMContentLoaded", () => {
          const graph = document.getElementById("graph");
          new MutationObserver(() => window.__nodeCounts.push(Number(graph.dataset.nodeCount)))
            .observe(graph, { attributes: true, attributeFilter: ["data-node-count"] });
        });`,
    });
    const problems: string[] = [];
    page.on("console", (m) => {
      // The wrong key's 401 is logged by Chromium as a failed resource: expected. So is the page's question
      // whether a person is signed in (GET /auth/session answers 401 when nobody is).
      if (m.type() === "error" && !/status of 401/.test(m.text()) && !isSessionProbe(m.location().url))
        problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    // Nothing but the service: the page must work offline.
    const elsewhere: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(url)) elsewhere.push(r.url());
    });

    const response = await page.goto(`${url}/app/investigations/${created.id}?project=${svc.project.id}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");

    // A wrong key: back to the form, told why.
    await expect.poll(() => page.locator("#project-input").inputValue()).toBe(String(svc.project.id));
    await page.fill("#key-input", "vigia_wrong-key");
    await page.click("#key-form button[type=submit]");
    await page.waitForSelector("#form-error:not([hidden])");
    expect(await page.textContent("#form-error")).toMatch(/API key was rejected \(401/);

    // The right key (a viewer key is enough to read).
    await page.fill("#key-input", svc.project.keys.viewer);
    await page.click("#key-form button[type=submit]");
    await page.waitForSelector('#graph[data-status="completed"]', { timeout: 90_000 });

    // The layers as the API gives them: the final one is what the page must show.
    type Layer = {
      isProvisional: boolean;
      riskScore: number;
      riskReason: string;
      cumulativeGraph: { metadata: { totalNodes: number } };
    };
    const analysisId = String(created.analysis_id || (await analysisIdOf(String(created.id))));
    const layers: Layer[] = [];
    for (let layer = 0; layer < MAX_DEPTH; layer++) {
      layers.push((await api("GET", `/v1/analysis/${analysisId}/layers/${layer}`)) as unknown as Layer);
    }
    const finalLayer = layers[MAX_DEPTH - 1]!;
    expect(finalLayer.isProvisional).toBe(false);
    const graph = await viewerGraphState(page);
    expect(graph.status).toBe("completed");
    expect(graph.completedLayers).toBe(MAX_DEPTH);
    expect(graph.nodeCount).toBe(finalLayer.cumulativeGraph.metadata.totalNodes);
    expect(graph.nodeCount).toBeGreaterThan(1);
    // Drawn layer by layer: the counts the page went through are the layers' own, in order.
    const dedupe = (xs: number[]) => xs.filter((x, i) => i === 0 || x !== xs[i - 1]);
    const seen = dedupe((await page.evaluate<number[]>("window.__nodeCounts")).filter((n) => n > 0));
    expect(seen).toEqual(dedupe(layers.map((l) => l.cumulativeGraph.metadata.totalNodes)));
    expect(seen.length).toBeGreaterThan(1);

    // The final layer's reason beside its score, word for word.
    expect(finalLayer.riskReason).toBeTruthy();
    expect(await page.locator("#score-reason").isVisible()).toBe(true);
    expect(await page.textContent("#score-reason")).toBe(`Why: ${finalLayer.riskReason}`);

    // One point per layer on the score chart, the last one the final score.
    const points = page.locator("#score-chart circle.point");
    expect(await points.count()).toBe(MAX_DEPTH);
    expect(await points.last().getAttribute("data-score")).toBe(String(finalLayer.riskScore));
    expect(await page.locator("#score-chart circle.point.final").count()).toBe(1);
    expect(await page.locator("#score-list li").count()).toBe(MAX_DEPTH);
    // The peel chain is listed with its evidence, and each layer has its entry in the log.
    expect(await page.locator('#patterns-now [data-pattern="peel_chain"]').count()).toBeGreaterThan(0);
    expect(await page.locator("#pattern-log > li").count()).toBe(MAX_DEPTH);
    // Its evidence highlights its wallets in the graph.
    const card = page.locator('#patterns-now [data-pattern="peel_chain"]').first();
    await card.locator(".evidence > summary").click();
    await card.getByRole("button", { name: "Highlight in graph" }).click();
    expect(await card.locator(".evidence-status").textContent()).toMatch(/^\d+ highlighted$/);

    // The key lives in this tab's session only.
    const stored = await page.evaluate<{ session: string | null; local: number }>(
      '({ session: sessionStorage.getItem("vigia.viewer.apiKey"), local: localStorage.length })',
    );
    expect(stored).toEqual({ session: svc.project.keys.viewer, local: 0 });

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({
      path: path.join(ARTIFACTS, `viewer-${onPostgres ? "postgres" : "pglite"}.png`),
      fullPage: true,
    });
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 120_000);

  async function analysisIdOf(id: string): Promise<string> {
    const record = await api("GET", `/v1/projects/${svc.project.id}/investigations/${id}`);
    return String(record.analysis_id);
  }
});
