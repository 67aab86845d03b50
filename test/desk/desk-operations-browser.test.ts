// The officer's pages on the alerts of the exchange's operations, in headless Chromium (es-MX, America/Mexico_City),
// on the real service on 127.0.0.1: a client paid in by six SPEI payers who withdrew USDT to a sanctioned address
// (its operations judged by the monitor with the service's own quick check and the integrator's profile); the
// inbox names the rules in Spanish; the fan-in alert's page shows its reason and its operations (kind, amount,
// payer and CLABE, clave de rastreo) in Spanish, with no English catalog text; the client's case opens.
// Screenshots in test-artifacts/desk/. PGlite, or PostgreSQL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mexican } from "../jurisdictions/cases/profiles.ts";
import { chromiumAvailable, type HeadlessBrowser, launchChromium } from "../support/browser.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { judgeAllOperations, validClabe } from "../support/operations.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { notSpanish, snap } from "./desk-page.ts";

const runnable = chromiumAvailable() || Boolean(process.env.CI);
const CHAIN = 31337;
const SANCTIONED = "0x00000000000000000000000000000000000bad02";
const CLIENT = "cliente-mula";
const OFFICER = {
  email: "ana.lopez@exchange.mx",
  password: "Cumplimiento-Matutino-2026",
  displayName: "Ana López",
};

let svc: TestService;
let url: string;
let integrator: http.Server;
let browser: HeadlessBrowser;

describe.runIf(runnable)("the alerts of the exchange's operations in the officer's pages", () => {
  beforeAll(async () => {
    integrator = http.createServer((req, res) => {
      const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
      if (user && decodeURIComponent(user) === CLIENT)
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(mexican()));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
    svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
    url = await svc.listen();
    const db = svc.database.db;
    const { id: projectId, keys } = svc.project;
    const api = async (method: string, path: string, key: string, body?: object) => {
      const res = await svc.app!.inject({
        method: method as "GET",
        url: path,
        headers: auth(key),
        payload: body,
      });
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
      return res.json();
    };
    await api("PATCH", `/v1/projects/${projectId}`, keys.admin, {
      integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
      jurisdictions: ["MX"],
    });
    await api("POST", `/v1/projects/${projectId}/users`, keys.admin, { ...OFFICER, role: "officer" });
    await new MonitoredChain(db, CHAIN).block(new Date(Date.now() - 86_400_000), [
      { from: SANCTIONED, to: "0x0000000000000000000000000000000000000b01", value: 10n ** 18n },
    ]);
    await labelSanctioned(db, SANCTIONED);
    for (const daysAgo of [0, 1])
      await db
        .insertInto("fx_rates")
        .values({
          day: new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10),
          currency: "MXN",
          per_usd: "20",
        })
        .execute();
    const start = Date.now() - 8 * 3_600_000;
    const payers = ["Rosa Méndez", "Jorge Salas", "Luz Ortega", "Pedro Vela", "Inés Cano", "Raúl Nava"];
    const deposits = payers.map((name, i) => ({
      operationId: `spei-${i}`,
      userId: CLIENT,
      kind: "fiat_deposit",
      at: new Date(start + i * 3_600_000).toISOString(),
      currency: "MXN",
      amount: "9800",
      rail: "spei",
      counterparty: { name, bank: "BBVA México", account: validClabe(i + 1) },
      reference: `BBVA2026RASTREO${i}`,
    }));
    await api("POST", `/v1/projects/${projectId}/operations`, keys.developer, {
      operations: [
        ...deposits,
        {
          operationId: "retiro-1",
          userId: CLIENT,
          kind: "crypto_withdrawal",
          at: new Date(start + 7 * 3_600_000).toISOString(),
          asset: "USDT",
          amount: "2900",
          chainId: CHAIN,
          address: SANCTIONED,
        },
      ],
    });
    await judgeAllOperations(svc);
    browser = await launchChromium({
      viewport: { width: 1280, height: 900 },
      locale: "es-MX",
      timezoneId: "America/Mexico_City",
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    integrator?.closeAllConnections();
    await new Promise((resolve) => integrator?.close(resolve));
  });

  it("the inbox names the rules, the alert shows its reason and its operations, the case opens: all in Spanish", async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`${url}/app/login`);
    await page.fill("#login-email", OFFICER.email);
    await page.fill("#login-password", OFFICER.password);
    await page.click("#login-form button[type=submit]");
    await page.waitForSelector('#inbox[data-status="ready"]');
    const inbox = (await page.textContent("#inbox")) ?? "";
    expect(inbox).toContain("Concentración de ordenantes");
    expect(inbox).toContain("Retiro a una dirección de riesgo");
    expect(await notSpanish(page)).toEqual([]);
    await snap(page, "operations-01-inbox");

    const alerts = (
      await svc.app!.inject({
        url: `/v1/projects/${svc.project.id}/alerts?cause=fan_in`,
        headers: auth(svc.project.keys.viewer),
      })
    ).json().data as { id: string }[];
    expect(alerts).toHaveLength(1);
    const fanIn = alerts[0]?.id as string;
    await page.goto(`${url}/app?alert=${fanIn}`);
    await page.waitForSelector(`#detail[data-alert-id="${fanIn}"]`);
    const detail = (await page.textContent(`#detail`)) ?? "";
    expect(detail).toMatch(/recibió 6 depósitos en moneda fiduciaria de 6 ordenantes distintos/);
    expect(detail).toContain("USD 2,940 en total");
    expect(detail).toContain("Operaciones en la plataforma");
    expect(detail).toContain("Depósito de fondos");
    expect(detail).toContain("Retiro de activos virtuales");
    expect(detail).toContain("Rosa Méndez");
    expect(detail).toContain(validClabe(1));
    expect(detail).toContain("BBVA2026RASTREO0");
    expect(await notSpanish(page)).toEqual([]);
    await snap(page, "operations-02-fan-in");

    await page.goto(`${url}/app/cases/${CLIENT}`);
    await page.waitForSelector('#case[data-status="ready"]');
    expect(await page.textContent("#case")).toContain("Concentración de ordenantes");
    expect(await notSpanish(page)).toEqual([]);
    await snap(page, "operations-03-case");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
