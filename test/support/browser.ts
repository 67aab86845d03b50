// Headless Chromium for the browser tests and the viewer benchmark: Debian's `chromium` (no browser download is
// possible here) driven by playwright-core, in a fresh profile directory that is removed on close. Flags keep it
// from reaching anything but the pages it is sent to (no component updates, sync or background networking).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export const chromiumAvailable = () => fs.existsSync(CHROMIUM_PATH);

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface HeadlessBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(
  opts: {
    viewport?: { width: number; height: number };
    /** the browser's language and clock, as a user's would be (e.g. es-MX, America/Mexico_City) */
    locale?: string;
    timezoneId?: string;
  } = {},
): Promise<HeadlessBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      // The browser's own language too (date and month fields are drawn in it), not only Accept-Language.
      args: opts.locale ? [...ARGS, `--lang=${opts.locale}`] : ARGS,
      viewport: opts.viewport ?? { width: 1440, height: 960 },
      ...(opts.locale ? { locale: opts.locale } : {}),
      ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
      timeout: 60_000,
    });
    return {
      context,
      async close() {
        await context.close().catch(() => {});
        fs.rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/** What the viewer's graph container reports (web/viewer/main.ts): read as attributes, no DOM types needed. */
export async function viewerGraphState(page: Page) {
  const graph = page.locator("#graph");
  const attr = async (name: string) => (await graph.getAttribute(name)) ?? "";
  return {
    status: await attr("data-status"),
    completedLayers: Number(await attr("data-completed-layers")),
    nodeCount: Number(await attr("data-node-count")),
    edgeCount: Number(await attr("data-edge-count")),
  };
}
