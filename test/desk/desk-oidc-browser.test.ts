// Signing in through the company's identity provider, in headless Chromium (es-MX, America/Mexico_City): the
// sign-in page offers the provider by its name; a person with an account goes there, signs in at the provider (a
// real oidc-provider on 127.0.0.1 with its own sign-in and consent forms) and lands on her inbox, signed in as
// herself; an e-mail with no account comes back to the sign-in page told why, in Spanish. PGlite, or PostgreSQL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, type HeadlessBrowser, launchChromium } from "../support/browser.ts";
import { oidcEnv, startOidcProvider, type TestProvider } from "../support/oidc-provider.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { PASSWORD } from "../users/support.ts";
import { notSpanish, snap } from "./desk-page.ts";

const runnable = chromiumAvailable() || Boolean(process.env.CI);
const ACCOUNTS: Record<string, { email: string; email_verified: boolean }> = {
  ana: { email: "ana.oficial@exchange.mx", email_verified: true },
  stranger: { email: "nadie@exchange.mx", email_verified: true },
};

/** A port free now on 127.0.0.1: the provider must know the service's callback before the service listens. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let provider: TestProvider;
let svc: TestService;
let url: string;
let browser: HeadlessBrowser;

describe.runIf(runnable)("signing in through the identity provider, in Chromium", () => {
  beforeAll(async () => {
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/auth/oidc/callback`;
    provider = await startOidcProvider(callback, ACCOUNTS);
    svc = await startTestService({ env: oidcEnv(provider, callback, "Exchange SSO") });
    url = await svc.listen(port);
    const created = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/users`,
      headers: auth(svc.project.keys.admin),
      payload: {
        email: ACCOUNTS.ana!.email,
        displayName: "Ana Oficial",
        role: "officer",
        password: PASSWORD,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    browser = await launchChromium({ locale: "es-MX", timezoneId: "America/Mexico_City" });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    provider?.close();
  });

  /** From the sign-in page, through the provider's own sign-in and consent forms. */
  async function throughProvider(accountId: string) {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.goto(`${url}/app/login`);
    const button = page.locator("#login-oidc");
    await expect.poll(() => button.textContent()).toBe("Entrar con Exchange SSO");
    await button.click();
    await page.waitForSelector('input[name="login"]');
    await page.fill('input[name="login"]', accountId);
    await page.fill('input[name="password"]', "anything");
    await page.click('button[type="submit"]');
    // The consent form (first sign-in of this account to this client).
    await page.waitForURL((u) => u.href.startsWith(url) || u.pathname.includes("interaction"));
    if (!page.url().startsWith(url)) await page.click('button[type="submit"]');
    await page.waitForURL((u) => u.href.startsWith(`${url}/app`));
    return page;
  }

  it("a person with an account lands on her inbox, signed in as herself", async () => {
    const page = await throughProvider("ana");
    await page.waitForSelector('#inbox[data-status="ready"]');
    expect(await page.locator("header").textContent()).toContain("Ana Oficial");
    expect(await notSpanish(page)).toEqual([]);
    await snap(page, "oidc-1-inbox");
    await page.close();
  }, 120_000);

  it("an e-mail with no account comes back to sign-in, told why in Spanish", async () => {
    const page = await throughProvider("stranger");
    await page.waitForURL(`${url}/app/login`);
    await expect
      .poll(() => page.locator("#login-error").textContent())
      .toBe(
        "Ninguna cuenta de este servicio tiene el correo nadie@exchange.mx: un administrador debe crearla primero (no hay registro propio).",
      );
    expect(await notSpanish(page)).toEqual([]);
    await snap(page, "oidc-2-no-account");
    // Read once: a reload does not say it again.
    await page.reload();
    await page.waitForSelector("#login-form");
    expect(await page.locator("#login-error").count()).toBe(0);
    await page.close();
  }, 120_000);
});
