// What the browser test reads on each page of the officer's desk: every text shown (and the labels only a screen
// reader or a menu shows), checked against the catalog for English left on a Spanish page (a text that is the
// English catalog entry, a raw message id, an ICU text left unformatted); words broken inside at narrow widths;
// screenshots kept per step as test artifacts.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { CATALOG } from "../../src/messages/index.ts";
import { onPostgres } from "../support/database.ts";

export const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/desk");

export async function snap(page: Page, step: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({
    path: path.join(ARTIFACTS, `${onPostgres ? "postgres" : "pglite"}-${step}.png`),
    fullPage: true,
  });
}

// The page-side code runs in Chromium, written as source: this project's test compilation has no DOM types.
const VISIBLE_TEXTS = `(() => {
  const out = [];
  const shown = (el) => {
    const style = getComputedStyle(el);
    return style.display !== "none" && style.visibility !== "hidden";
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent && node.textContent.trim();
    if (parent && text && shown(parent) && parent.tagName !== "SCRIPT" && parent.tagName !== "STYLE") out.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label],[placeholder],[title]"))
    for (const attr of ["aria-label", "placeholder", "title"]) {
      const value = (el.getAttribute(attr) || "").trim();
      if (value) out.push(value);
    }
  out.push(document.title);
  return out;
})()`;

/** The texts a person reads on the page: text nodes of what is rendered, aria-labels, placeholders, titles. */
export const visibleTexts = (page: Page): Promise<string[]> => page.evaluate(VISIBLE_TEXTS);

const ids = new Set(Object.keys(CATALOG.en));
const spanish = new Set(Object.values(CATALOG.es));
/** English texts of the catalog that no Spanish text is: seen on a Spanish page, they are untranslated. */
const englishOnly = new Set(Object.values(CATALOG.en).filter((t) => !spanish.has(t) && !/[{}]/.test(t)));

/** What on the page is not Spanish as the catalog writes it: English entries, raw ids, unformatted ICU. */
export async function notSpanish(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const text of await visibleTexts(page)) {
    if (englishOnly.has(text)) problems.push(`English: ${text}`);
    for (const token of text.split(/[\s,;:()«»"]+/))
      if (ids.has(token)) problems.push(`message id: ${token}`);
    if (/\{[a-z]+(, (plural|number|select))?[},]/.test(text)) problems.push(`unformatted: ${text}`);
  }
  return [...new Set(problems)];
}

const BROKEN_WORDS = `(() => {
  const broken = new Set();
  for (const el of document.querySelectorAll("td, th, .badge, button, .menu a, label")) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent || "";
      // A word may wrap after its own hyphen or slash ("cliente-" / "mx"), never inside a run of letters.
      const words = /[^\\s/-]+[/-]?/g;
      for (let m = words.exec(text); m; m = words.exec(text)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.add(m[0]);
      }
    }
  }
  return [...broken];
})()`;

/** Words split across two lines inside table cells, badges, buttons, labels and the menu ("ILEG / AL"). */
export const brokenWords = (page: Page): Promise<string[]> => page.evaluate(BROKEN_WORDS);
