// The officer's desk (/app/alerts) in headless Chromium, on the real service on 127.0.0.1 with the devnet world in
// its store: alerts raised for real (scans of monitored addresses at the alert level, and a Mexican 24-hour aviso
// detected two days ago, now overdue), then the page: sign in (in Spanish), the inbox with the overdue alert first,
// a filter, an alert opened with its evidence, moved to closed / false_positive with a note, its evidence
// downloaded (the file's SHA-256 the one the service gives), English on a click; nothing requested from anywhere
// else. Runs on PGlite, and on PostgreSQL with DATABASE_URL. Needs Debian's chromium (.ci/run installs it).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raiseLawAlerts } from "../../src/alerts/index.ts";
import { compareLevels, type RiskLevel } from "../../src/risk/index.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { chromiumAvailable, type HeadlessBrowser, launchChromium } from "../support/browser.ts";
import { onPostgres } from "../support/database.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts");
const runnable = chromiumAvailable() || Boolean(process.env.CI);
if (!runnable) console.warn("desk-browser: /usr/bin/chromium is missing (apt-get install chromium): skipped");

const world = devnetWorld();
let svc: TestService;
let url: string;
let browser: HeadlessBrowser;

const api = async (method: "GET" | "POST", apiPath: string, body?: object) => {
  const res = await fetch(`${url}${apiPath}`, {
    method,
    headers: { ...auth(svc.project.keys.officer), ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
};

describe.runIf(runnable)("the officer's desk in headless Chromium", () => {
  const risky: string[] = [];
  let overdueId: string | undefined;

  beforeAll(async () => {
    svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
    await writeWorldToStore(svc.database.db, world, 1);
    url = await svc.listen();
    browser = await launchChromium();
    // Two monitored addresses whose scans reach the default alert level (high): two `analysis` alerts.
    for (const c of world.cases.filter((k) => k.positive)) {
      if (risky.length === 2) break;
      if (risky.includes(c.subject)) continue;
      const scan = JSON.parse(
        (
          await api("POST", `/v1/projects/${svc.project.id}/addresses/scan-risk`, {
            addresses: [{ address: c.subject, chainId: "1" }],
            maxDepth: 2,
            skipExisting: false,
          })
        ).body,
      ).data.results[0];
      if (scan.status !== "completed" || compareLevels(scan.riskLevel as RiskLevel, "high") < 0) continue;
      risky.push(c.subject);
    }
    expect(risky).toHaveLength(2);
    for (const [i, address] of risky.entries()) {
      const registered = await api("POST", `/v1/projects/${svc.project.id}/addresses`, {
        address,
        chainId: 1,
        foreign_user_id: `cliente-${i}`,
      });
      expect(registered.status, registered.body).toBe(201);
      await api("POST", `/v1/projects/${svc.project.id}/addresses/scan-risk`, {
        addresses: [{ address, chainId: "1" }],
        maxDepth: 2,
        skipExisting: false,
      });
    }
    // A Mexican 24-hour aviso detected two days ago: overdue now.
    const detected = new Date(Date.now() - 48 * 3_600_000);
    [overdueId] = await svc.database.db.transaction().execute((trx) =>
      raiseLawAlerts(trx, {
        projectId: svc.project.id,
        chainId: 1,
        address: risky[0]!,
        addressId: 1,
        userId: "cliente-0",
        notificationId: null,
        transfer: {
          txHash: `0x${"ab".repeat(32)}`,
          logIndex: -1,
          at: detected.toISOString(),
          usd: 3,
          direction: "in",
          counterparty: risky[1]!,
        },
        laws: [
          {
            id: "MX-24H-LISTA",
            name: "Aviso de 24 horas",
            description: "Operation with a person on a list.",
            source: "RCG Art. 30",
            risk: "illegal",
            country: "mexico",
            countryCode: "MX",
          },
        ],
        now: detected,
      }),
    );
    expect(overdueId).toBeDefined();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it("signs in, lists overdue first, filters, closes an alert as a false positive with a note, downloads its evidence", async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    const elsewhere: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(url) && !r.url().startsWith("blob:")) elsewhere.push(r.url());
    });

    const response = await page.goto(`${url}/app/alerts?project=${svc.project.id}&lang=es`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect(await page.textContent("#key-form h2")).toBe("Abrir las alertas del proyecto");
    await page.fill("#key-input", svc.project.keys.officer);
    await page.click("#key-form button[type=submit]");
    await page.waitForSelector('#inbox[data-status="ready"]');
    expect(await page.getAttribute("#inbox", "data-count")).toBe("3");
    expect(await page.textContent("#inbox-heading")).toBe("Bandeja");
    // Overdue first, marked in words.
    const first = page.locator("#inbox tbody tr").first();
    expect(await first.getAttribute("data-alert-id")).toBe(overdueId);
    expect(await first.getAttribute("data-overdue")).toBe("true");
    expect(await first.textContent()).toContain("VENCIDA");

    // A filter: the analyses' alerts only.
    await page.selectOption("#filter-cause", "analysis");
    await page.click("#filters button[type=submit]");
    await expect.poll(() => page.getAttribute("#inbox", "data-count")).toBe("2");
    const target = page.locator("#inbox tbody tr").first();
    const alertId = (await target.getAttribute("data-alert-id"))!;
    await target.locator("button.open-alert").click();
    await page.waitForSelector(`#detail[data-alert-id="${alertId}"]`);
    expect(await page.textContent("#detail")).toContain("Dictámenes"); // its verdicts, with their reasons

    // Closed as a false positive, with a note.
    await page.selectOption("#triage-status", "closed");
    await page.selectOption("#triage-resolution", "false_positive");
    await page.fill("#triage-note", "Cliente verificado: fondos de nómina.");
    await page.click("#triage-save");
    await page.waitForSelector('#detail[data-status="closed"]');
    expect(await page.textContent("#history")).toContain("Cliente verificado: fondos de nómina.");
    const stored = JSON.parse(
      (await api("GET", `/v1/projects/${svc.project.id}/alerts/${alertId}`)).body,
    ).data;
    expect(stored).toMatchObject({ status: "closed", resolution: "false_positive" });
    expect(stored.history.at(-1)).toMatchObject({
      actor: expect.stringMatching(/^key:\d+$/),
      change: {
        status: { from: "open", to: "closed" },
        resolution: "false_positive",
        note: expect.any(String),
      },
    });

    // The evidence, downloaded: the same bytes and hash the service gives.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-md")]);
    expect(download.suggestedFilename()).toBe(`alert-${alertId}-evidence.md`);
    const file = fs.readFileSync((await download.path())!);
    const sha = createHash("sha256").update(file).digest("hex");
    await page.waitForSelector(`#detail[data-evidence-sha256="${sha}"]`);
    const again = await api("GET", `/v1/projects/${svc.project.id}/alerts/${alertId}/evidence?format=md`);
    expect(again.headers.get("x-evidence-sha256")).toBe(sha);
    expect(file.toString("utf8")).toContain("Cliente verificado: fondos de nómina.");

    // English on a click.
    await page.selectOption("#lang", "en");
    await expect.poll(() => page.textContent("#inbox-heading")).toBe("Inbox");
    expect(await page.textContent("#desk-project")).toBe(`Project ${svc.project.id}`);
    await page.waitForSelector(`#detail[data-alert-id="${alertId}"] >> text=Evidence`);

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({
      path: path.join(ARTIFACTS, `desk-${onPostgres ? "postgres" : "pglite"}.png`),
      fullPage: true,
    });
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 120_000);
});
