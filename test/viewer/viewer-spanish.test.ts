// The investigation viewer for a Mexican officer: headless Chromium with locale es-MX and zone
// America/Mexico_City opens two investigations (a sanctioned address three hops upstream, and a peel chain) and
// every text the page shows is in Spanish: the page's own texts, the panels, a node's details, the reason of the
// score and the patterns' descriptions and rules (which the API answers in Spanish for the page's
// Accept-Language). A check that fails on an English text of the catalog anywhere on the page, and on English
// words in what the page writes (the labels the data gives, addresses and hashes left out). The same pages open in
// English for an en-US browser. Screenshots are kept in test-artifacts/.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG } from "../../src/messages/index.ts";
import { chromiumAvailable, type HeadlessBrowser, launchChromium } from "../support/browser.ts";
import { onPostgres } from "../support/database.ts";
import { clickNode, isSessionProbe, openInvestigation } from "./viewer-page.ts";
import { startViewerWorld, type ViewerWorld } from "./viewer-world.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts");
const MAX_DEPTH = 4;
const runnable = chromiumAvailable() || Boolean(process.env.CI);
if (!runnable)
  console.warn("viewer-spanish: /usr/bin/chromium is missing (apt-get install chromium): skipped");

/** English words that a Spanish page never writes on its own. */
const ENGLISH =
  /\b(the|and|of|from|with|Received|Sent|Layer|Risk|score|Transfers?|hops?|Address|Evidence|Rule|Highlight|Clear|Legend|Exposure|Patterns?|Notable|Loading|Completed|Why|wallets?)\b/;

/** English texts of the catalog without parameters (a word long enough to mean something). */
const ENGLISH_TEXTS = Object.entries(CATALOG.en)
  .filter(([id, text]) => id.startsWith("viewer.") && !text.includes("{") && text.length >= 8)
  .filter(([id, text]) => CATALOG.es[id as keyof typeof CATALOG.es] !== text)
  .map(([, text]) => text.trim());

describe.runIf(runnable)("the investigation viewer in Spanish (es-MX, America/Mexico_City)", () => {
  let viewer: ViewerWorld;
  let spanish: HeadlessBrowser;
  beforeAll(async () => {
    viewer = await startViewerWorld();
    spanish = await launchChromium({ locale: "es-MX", timezoneId: "America/Mexico_City" });
  }, 90_000);
  afterAll(async () => {
    await spanish?.close();
    await viewer?.stop();
  });

  async function open(browser: HeadlessBrowser, caseId: string) {
    const { svc, world } = viewer;
    const subject = world.cases.find((c) => c.id === caseId)!.subject;
    const created = await viewer.api("POST", `/v1/projects/${svc.project.id}/investigations`, {
      name: `Investigación: ${caseId}`,
      wallet: subject,
      incremental: true,
      maxDepth: MAX_DEPTH,
    });
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && !isSessionProbe(m.location().url)) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    await openInvestigation(
      page,
      viewer.url,
      { investigation: String(created.id), project: svc.project.id },
      svc.project.keys.viewer,
    );
    const record = await viewer.api("GET", `/v1/projects/${svc.project.id}/investigations/${created.id}`);
    const final = (await viewer.api("GET", `/v1/analysis/${record.analysis_id}/layers/${MAX_DEPTH - 1}`)) as {
      cumulativeGraph: {
        rootAddress: string;
        nodes: Record<string, { label?: string; labelSource?: string }>;
      };
    };
    return { page, final, problems };
  }

  /** Everything the page shows or says to a screen reader, with the data's own words (labels, names) removed. */
  async function pageText(page: Page, dataWords: string[]): Promise<string> {
    // The evidence and parameters folded away are read too.
    await page.evaluate(`document.querySelectorAll("details").forEach((d) => { d.open = true; })`);
    // Code is data, not words: addresses, hashes and the detector's parameter names (its keys).
    await page.evaluate(`document.querySelectorAll("code").forEach((c) => { c.textContent = " "; })`);
    let text = await page.evaluate<string>(`(() => {
      const attrs = [...document.querySelectorAll("[aria-label],[title]")]
        .flatMap((e) => [e.getAttribute("aria-label"), e.getAttribute("title")]).filter(Boolean);
      return [document.title, document.body.innerText, ...attrs].join("\\n");
    })()`);
    for (const word of [...dataWords].sort((a, b) => b.length - a.length)) text = text.split(word).join(" ");
    return text.replace(/0x[0-9a-fA-F]{6,}…?[0-9a-fA-F]*/g, " ").replace(/T[1-9A-HJ-NP-Za-km-z]{20,}/g, " ");
  }

  /** The labels and label sets the data gives: the data's own words, not the page's. */
  const dataWords = (nodes: Record<string, { label?: string; labelSource?: string }>) =>
    Object.values(nodes)
      .flatMap((n) => [n.label, n.labelSource])
      .filter((w): w is string => typeof w === "string" && w.length > 0);

  function expectSpanish(text: string): void {
    const english = ENGLISH_TEXTS.filter((t) => text.includes(t));
    expect(english).toEqual([]);
    const lines = text.split("\n").filter((l) => ENGLISH.test(l));
    expect(lines).toEqual([]);
  }

  const screenshot = (page: Page, name: string) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    return page.screenshot({
      path: path.join(ARTIFACTS, `${name}-${onPostgres ? "postgres" : "pglite"}.png`),
      fullPage: true,
    });
  };

  it("says everything in Spanish for a sanctioned address upstream, a node's details included", async () => {
    const { page, final, problems } = await open(spanish, "demo-sanctions-d3");
    expect(await page.getAttribute("html", "lang")).toBe("es-MX");
    await expect.poll(() => page.textContent("#status-badge")).toBe("Terminado");
    expect(await page.textContent("#score-reason")).toMatch(/^Por qué: Recibió USD [\d,]+ .* sancionada/);
    expect(await page.textContent("#exposure-list")).toContain("de sus fondos entrantes");
    const labels = dataWords(final.cumulativeGraph.nodes);
    const sanctioned = Object.entries(final.cumulativeGraph.nodes).find(([, n]) => n.labelSource)?.[0];
    if (sanctioned) {
      await clickNode(page, sanctioned);
      expect(await page.textContent("#details")).toContain("Origen de la etiqueta");
      // Dates in her zone, named.
      expect(await page.textContent("#details")).toContain("America/Mexico_City");
    }
    await screenshot(page, "viewer-es-sanctions");
    expectSpanish(await pageText(page, [...labels, "Investigación: demo-sanctions-d3", "Vigía"]));
    expect(problems).toEqual([]);
    await page.close();
  }, 150_000);

  it("writes a pattern's description and its rule in Spanish", async () => {
    const { page, final, problems } = await open(spanish, "demo-peel_chain");
    await expect.poll(() => page.locator("#patterns-now article").count()).toBeGreaterThan(0);
    const card = await page.textContent("#patterns-now article");
    expect(card).toContain("Cadena de pelado");
    expect(card).toContain("Regla: ");
    const labels = dataWords(final.cumulativeGraph.nodes);
    await screenshot(page, "viewer-es-peel-chain");
    expectSpanish(await pageText(page, [...labels, "Investigación: demo-peel_chain", "Vigía"]));
    expect(problems).toEqual([]);
    await page.close();
  }, 150_000);

  it("stays in English for an English browser", async () => {
    const { page, problems } = await open(viewer.browser, "demo-sanctions-d2");
    expect(await page.textContent("#status-badge")).toBe("Completed");
    expect(await page.textContent("#score-reason")).toMatch(/^Why: Received /);
    expect(problems).toEqual([]);
    await page.close();
  }, 150_000);
});
