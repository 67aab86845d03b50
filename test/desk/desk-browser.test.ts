// The compliance officer's pages (/app) in headless Chromium with her locale and clock (es-MX, America/Mexico_City),
// on the real service on 127.0.0.1 (desk-world.ts): a deep link sends her to sign-in and back; a wrong password is
// refused in words; the inbox pages over every alert with the overdue one (the oldest) first and its linked alert
// named in its row (beside it when on the same page); an alert opened, assigned to her and moved with a note (the
// history says it as a sentence naming her); the client's case; one match confirmed and one discarded; October
// generated and marked filed with a folio and its file downloaded; the coming deadlines as the law's day and hour; a
// name screened, and one client screened again; an aviso raised from the alert. On every page: no English catalog
// text, no raw message id; at 1024 and 1280 px no word broken inside. A viewer sees no button her role may not use;
// an ended session goes back to sign-in keeping the page; an account with an authenticator is asked for its code;
// the inbox refreshes itself, but not while she types in its filters; a person created without a password chooses
// one from the link the administrator was given.
// Screenshots per step in test-artifacts/desk/. PGlite, or PostgreSQL.
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, type HeadlessBrowser, launchChromium } from "../support/browser.ts";
import { brokenWords, notSpanish, snap } from "./desk-page.ts";
import { CLIENTS, type DeskWorld, PEOPLE, startDeskWorld } from "./desk-world.ts";

const runnable = chromiumAvailable() || Boolean(process.env.CI);
if (!runnable) console.warn("desk-browser: /usr/bin/chromium is missing (apt-get install chromium): skipped");

let world: DeskWorld;
let browser: HeadlessBrowser;

describe.runIf(runnable)("the officer's pages in headless Chromium (es-MX, America/Mexico_City)", () => {
  beforeAll(async () => {
    world = await startDeskWorld();
    browser = await launchChromium({
      viewport: { width: 1280, height: 900 },
      locale: "es-MX",
      timezoneId: "America/Mexico_City",
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await world?.stop();
  });

  const open = async () => {
    // Each test signs in as its own person.
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      // A refused call (401 before sign-in, 409 on a decision) is logged by the browser itself; the page says it.
      if (m.type() === "error" && !/Failed to load resource/.test(m.text())) problems.push(m.text());
    });
    const elsewhere: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(world.url) && !r.url().startsWith("blob:")) elsewhere.push(r.url());
    });
    return { page, problems, elsewhere };
  };
  const spanishEverywhere = async (page: Awaited<ReturnType<typeof open>>["page"]) =>
    expect(await notSpanish(page)).toEqual([]);

  const signIn = async (
    page: Awaited<ReturnType<typeof open>>["page"],
    who: { email: string; password: string },
  ) => {
    await page.fill("#login-email", who.email);
    await page.fill("#login-password", who.password);
    await page.click("#login-form button[type=submit]");
  };

  it("the officer's whole morning, in Spanish, on her clock", async () => {
    const { page, problems, elsewhere } = await open();
    // A deep link before signing in: sign-in first, then back to where she was going.
    const response = await page.goto(`${world.url}/app/cases/${CLIENTS.mx.userId}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.waitForURL(/\/app\/login\?next=/);
    expect(await page.textContent("#login-heading")).toBe("Iniciar sesión en Vigía");
    await spanishEverywhere(page);
    await snap(page, "01-sign-in");
    await signIn(page, { email: PEOPLE.officer.email, password: "no-es-su-contraseña-123" });
    await expect.poll(() => page.textContent("#login-error")).toContain("no son correctos");
    await signIn(page, PEOPLE.officer);
    await page.waitForURL(`${world.url}/app/cases/${CLIENTS.mx.userId}`);
    await page.waitForSelector('#case[data-status="ready"]');
    expect(await page.textContent("#desk-user")).toContain("Ana López");
    // An aviso can be raised from the client's case: the form opens with the client filled in.
    await page.click("#case-aviso");
    await page.waitForSelector("#aviso-client");
    expect(await page.inputValue("#aviso-client")).toBe(CLIENTS.mx.userId);

    // Bandeja: every alert, paged, the overdue one (the oldest) first, its linked alert next to it.
    await page.click('nav a[href="/app"]');
    await page.waitForSelector('#inbox[data-status="ready"]');
    expect(await page.getAttribute("#inbox-total", "data-total")).toBe(String(world.total));
    expect(await page.textContent("#inbox-total")).toContain(`${world.total} alertas · página 1 de 2`);
    const first = page.locator("#inbox tbody tr").first();
    expect(await first.getAttribute("data-alert-id")).toBe(world.overdueId);
    expect(await first.getAttribute("data-overdue")).toBe("true");
    expect(await first.textContent()).toMatch(/VENCIDA hace (2 días|\d+ h)/);
    // Its linked alert (same transfer, no deadline: on the last page) is named in its row, one click away.
    expect(await first.locator(`a[data-linked-id="${world.linkedId}"]`).count()).toBe(1);
    await spanishEverywhere(page);
    expect(await brokenWords(page)).toEqual([]);
    await snap(page, "02-inbox");
    await page.click("#page-next");
    await expect.poll(() => page.textContent("#inbox-total")).toContain("página 2 de 2");
    await page.click("#page-prev");

    // Person matches only.
    await page.selectOption("#filter-cause", "person_match");
    await page.click("#filters button[type=submit]");
    await expect.poll(() => page.getAttribute("#inbox", "data-count")).toBe("2");
    // One client's alerts: the transfer's two alerts side by side.
    await page.fill("#filter-client", CLIENTS.mx.userId);
    await page.selectOption("#filter-cause", "");
    await page.click("#filters button[type=submit]");
    await expect.poll(() => page.getAttribute("#inbox", "data-count")).toBe("2");
    // The person-match filter also showed two rows: wait for the client's rows themselves, not the count alone.
    await expect
      .poll(() => page.locator("#inbox tbody tr").nth(1).getAttribute("data-linked-to"))
      .toBe(world.overdueId);
    await page.click("#filters button.secondary");
    await expect.poll(() => page.getAttribute("#inbox-total", "data-total")).toBe(String(world.total));

    // The overdue alert: its deadline as the law's, assigned to her, moved to review with a note.
    await page.click(`#inbox tr[data-alert-id="${world.overdueId}"] button.open-alert`);
    await page.waitForSelector(`#detail[data-alert-id="${world.overdueId}"]`);
    expect(await page.textContent("#detail .deadline-law")).toMatch(/de \d{4}(,| a las) \d{2}:\d{2} .*hace/);
    const officerId = await page.locator("#assignee option", { hasText: "Ana López" }).getAttribute("value");
    expect(officerId).toBeTruthy();
    await page.selectOption("#assignee", officerId!);
    await expect.poll(() => page.textContent("#history")).toContain("Ana López");
    await page.selectOption("#triage-status", "in_review");
    await page.fill("#triage-note", "Contraparte en la lista OFAC: se prepara el aviso.");
    await page.click("#triage-save");
    await page.waitForSelector('#detail[data-status="in_review"]');
    expect(await page.textContent("#history")).toContain(
      "Contraparte en la lista OFAC: se prepara el aviso.",
    );
    await spanishEverywhere(page);
    await snap(page, "03-alert");
    // The wallet report, rendered from its markdown: headings and lists, no "##" left.
    await page.click("#wallet-report");
    await page.waitForSelector("#wallet-report-body h1, #wallet-report-body h2", { timeout: 60_000 });
    expect(await page.textContent("#wallet-report-body")).not.toMatch(/(^|\n)#+ /);

    // The client's case.
    await page.click("#link-case");
    await page.waitForSelector('#case[data-status="ready"]');
    expect(await page.textContent("#case-heading")).toBe(`Caso del cliente ${CLIENTS.mx.userId}`);
    expect(await page.locator('#case .alert-group[data-group-size="2"]').count()).toBe(1);
    expect(await page.locator("#case-timeline li").count()).toBeGreaterThan(0);
    await spanishEverywhere(page);
    await snap(page, "04-case");

    // One match confirmed, one discarded, each with a reason.
    for (const [alertId, decision, reason] of [
      [world.gilbertoAlert, "confirm", "Misma fecha de nacimiento y nombre completo: es la persona listada."],
      [world.miguelAlert, "discard", "Homónimo: el documento del cliente no coincide con la entrada."],
    ] as const) {
      await page.goto(`${world.url}/app/matches/${alertId}`);
      await page.waitForSelector('#match[data-status="pending"]');
      expect(await page.textContent("#match")).toContain("Nuestro cliente");
      expect(await page.textContent("#match")).toContain("RODRIGUEZ OREJUELA");
      await spanishEverywhere(page);
      await page.fill("#match-reason", reason);
      await page.click(`#match-${decision}`);
      await page.waitForSelector(`#match[data-status="reviewed-${decision}"]`);
      expect(await page.textContent("#match-review")).toContain(reason);
      await snap(page, `05-match-${decision}`);
    }

    // Last month generated, its file downloaded and marked filed with the folio; the coming deadlines as the law's.
    await page.click('nav a[href="/app/reports"]');
    await page.waitForSelector("#coming tbody tr");
    const monthly = page.locator('#coming tr[data-filing="MX-AVI-MONTHLY"]').first();
    // The project's first month in Mexico City is this one: its file falls due on the 17th of the next.
    const [year, month] = new Intl.DateTimeFormat("en-CA", {
      timeZone: "America/Mexico_City",
      year: "numeric",
      month: "2-digit",
    })
      .format(new Date())
      .split("-")
      .map(Number) as [number, number];
    const next = new Date(Date.UTC(year, month, 1));
    const nextName = new Intl.DateTimeFormat("es-MX", { month: "long", timeZone: "UTC" }).format(next);
    expect(await monthly.textContent()).toMatch(
      new RegExp(`17 de ${nextName} de ${next.getUTCFullYear()}(,| a las) 23:59`),
    );
    expect(await monthly.textContent()).toMatch(/vence en \d+ días/);
    // The period offered is the last month closed there.
    expect(await page.inputValue("#report-period")).toBe(
      new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 7),
    );
    await page.click("#report-generate");
    await page.waitForSelector("#report-notice");
    await page.waitForSelector('#report-files tr[data-status="draft"]');
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click('#report-files tr[data-status="draft"] button.download'),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xml$/);
    await page.fill('#report-files tr[data-status="draft"] input.folio', "2026-123");
    await page.click('#report-files tr[data-status="draft"] button.mark-filed');
    await page.waitForSelector('#report-files tr[data-status="filed"]');
    expect(await page.textContent('#report-files tr[data-status="filed"]')).toContain("2026-123");
    await spanishEverywhere(page);
    expect(await brokenWords(page)).toEqual([]);
    await snap(page, "06-reports");

    // A name screened now.
    await page.click('nav a[href="/app/lists"]');
    await page.waitForSelector("#lists tbody tr");
    expect(await page.textContent("#lists")).toContain("OFAC SDN (Estados Unidos)");
    await page.fill("#screen-name", "Gilberto José Rodríguez Orejuela");
    await page.fill("#screen-birthdate", "1939-01-31");
    await page.click("#screen-submit");
    await page.waitForSelector('#screen-result[data-verdict="match"]');
    // One client screened again now, and the way to its case; a client the project does not monitor is said so.
    await page.fill("#screen-client-id", "cliente-desconocido");
    await page.click("#screen-client");
    await expect.poll(() => page.locator("[role=alert]").count()).toBeGreaterThan(0);
    await page.fill("#screen-client-id", CLIENTS.gilberto.userId);
    await page.click("#screen-client");
    await page.waitForSelector("#screen-client-result");
    expect(await page.textContent("#screen-client-result")).toContain(
      `Cliente ${CLIENTS.gilberto.userId} en cola`,
    );
    await spanishEverywhere(page);
    await snap(page, "07-lists");
    await page.click("#screen-client-result a");
    await page.waitForURL(`${world.url}/app/cases/${CLIENTS.gilberto.userId}`);

    // An aviso raised from the overdue alert: due in 24 hours, as the law's hour in Mexico City.
    await page.goto(`${world.url}/app?alert=${world.overdueId}`);
    await page.click("#link-aviso");
    await page.waitForSelector("#aviso-from-alert");
    expect(await page.inputValue("#aviso-client")).toBe(CLIENTS.mx.userId);
    await page.fill(
      "#aviso-narrative",
      "El cliente recibió fondos de una contraparte en la lista SDN de OFAC; se presenta el aviso de 24 horas.",
    );
    await page.click("#aviso-submit");
    await page.waitForSelector("#aviso-raised");
    expect(await page.textContent("#aviso-raised")).toMatch(
      /vence el .* de \d{4}(,| a las) \d{2}:\d{2}.*vence en (23|24) h/,
    );
    await spanishEverywhere(page);
    await snap(page, "08-aviso");

    // At a laptop's 1024 px, nothing breaks inside a word.
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${world.url}/app?alert=${world.overdueId}`);
    await page.waitForSelector('#inbox[data-status="ready"]');
    await page.waitForSelector("#detail");
    expect(await brokenWords(page)).toEqual([]);
    await snap(page, "09-inbox-1024");
    await page.goto(`${world.url}/app/reports`);
    await page.waitForSelector("#report-files");
    expect(await brokenWords(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Her language, saved to her account: English on a click, and still after a reload.
    await page.selectOption("#lang", "en");
    await expect.poll(() => page.textContent("h1")).toBe("Reports and filing calendar");
    await page.reload();
    await expect.poll(() => page.textContent("h1")).toBe("Reports and filing calendar");
    await page.selectOption("#lang", "es");
    await expect.poll(() => page.textContent("h1")).toBe("Reportes y calendario de presentación");

    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.click("#sign-out");
    await page.waitForURL(/\/app\/login/);
    await page.close();
  }, 240_000);

  it("a viewer sees no button her role may not use", async () => {
    const { page, problems } = await open();
    await page.goto(`${world.url}/app/login`);
    await signIn(page, PEOPLE.viewer);
    await page.waitForSelector('#inbox[data-status="ready"]');
    const menu = await page.textContent("nav ul.menu");
    expect(menu).not.toContain("Nuevo aviso");
    expect(menu).not.toContain("Usuarios");
    await page.goto(`${world.url}/app?alert=${world.linkedId}`);
    await page.waitForSelector(`#detail[data-alert-id="${world.linkedId}"]`);
    for (const forbidden of ["#triage", "#triage-save", "#assignee", "#link-aviso", "#open-graph"])
      expect(await page.locator(forbidden).count(), forbidden).toBe(0);
    await spanishEverywhere(page);
    await snap(page, "10-viewer-alert");
    await page.goto(`${world.url}/app/cases/${CLIENTS.mx.userId}`);
    await page.waitForSelector('#case[data-status="ready"]');
    expect(await page.locator("#case-aviso").count()).toBe(0);
    await page.goto(`${world.url}/app/matches/${world.miguelAlert}`);
    await page.waitForSelector('#match:not([data-status="loading"])');
    expect(await page.locator("#match-confirm, #match-discard, #match-reason").count()).toBe(0);
    await page.goto(`${world.url}/app/reports`);
    await page.waitForSelector("#report-files");
    expect(await page.locator("#report-generate, .mark-filed").count()).toBe(0);
    expect(await page.locator("button.download").count()).toBeGreaterThan(0);
    await page.goto(`${world.url}/app/lists`);
    await page.waitForSelector("#lists");
    expect(await page.locator("#screen-form, #screen-run").count()).toBe(0);
    await spanishEverywhere(page);
    await page.goto(`${world.url}/app/users`);
    await page.waitForSelector("[role=alert]");
    expect(await page.locator("#user-form").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.click("#sign-out");
    await page.waitForURL(/\/app\/login/);
    await page.close();
  }, 120_000);

  it("the inbox refreshes itself every 30 s, but not while she is typing in its filters", async () => {
    const { page, problems } = await open();
    // Her page's clock, moved by the test (the network and the service keep real time).
    await page.clock.install();
    await page.goto(`${world.url}/app/login`);
    await signIn(page, PEOPLE.viewer);
    await page.waitForSelector('#inbox[data-status="ready"]');
    let reads = 0;
    page.on("request", (r) => {
      if (/\/v1\/projects\/\d+\/alerts\?/.test(r.url())) reads++;
    });
    await page.click("#filter-client");
    await page.keyboard.type("u-ga", { delay: 20 });
    await page.clock.runFor(65_000);
    expect(reads).toBe(0);
    expect(await page.inputValue("#filter-client")).toBe("u-ga");
    // Out of the form (a click on the heading leaves no field focused), the next tick reads the inbox again.
    await page.locator("#inbox-heading").click();
    await page.clock.runFor(31_000);
    await expect.poll(() => reads).toBeGreaterThan(0);
    await page.waitForSelector('#inbox[data-status="ready"]');
    // What she typed and had not applied is still there.
    expect(await page.inputValue("#filter-client")).toBe("u-ga");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("an ended session goes back to sign-in, keeping the page; the administrator's users page; a new person's link", async () => {
    const { page } = await open();
    await page.goto(`${world.url}/app/login`);
    await signIn(page, PEOPLE.admin);
    await page.waitForSelector('#inbox[data-status="ready"]');
    await page.click('nav a[href="/app/users"]');
    await page.waitForSelector("#users tbody tr");
    expect(await page.locator("#users tbody tr").count()).toBe(3);
    await page.fill("#user-email", "pedro.ruiz@exchange.mx");
    await page.fill("#user-name", "Pedro Ruiz");
    await page.selectOption("#user-role", "officer");
    await page.click("#user-create");
    await expect.poll(() => page.locator("#users tbody tr").count()).toBe(4);
    await spanishEverywhere(page);
    await snap(page, "11-users");
    const link = (await page.locator("#user-link code").textContent()) ?? "";

    // The older desk's address lands on the inbox.
    const old = await fetch(`${world.url}/app/alerts`, { redirect: "manual" });
    expect([old.status, old.headers.get("location")]).toEqual([302, "/app"]);

    // The session ends (its cookie gone): the next call sends her to sign-in, and back afterwards.
    await page.goto(`${world.url}/app/lists`);
    await page.waitForSelector("#lists");
    await browser.context.clearCookies();
    await page.click('nav a[href="/app/reports"]');
    await page.waitForURL(/\/app\/login\?next=%2Fapp%2Freports/);
    await signIn(page, PEOPLE.admin);
    await page.waitForURL(`${world.url}/app/reports`);
    await page.close();

    // Pedro opens the one-time link he was given and chooses his password, then signs in with it.
    expect(link).toMatch(new RegExp(`^${world.url}/app/login#set-password=[\\w-]+$`));
    const pedro = (await open()).page;
    await pedro.goto(link);
    await pedro.waitForSelector("#set-password-form");
    expect(new URL(pedro.url()).hash).toBe(""); // the token left the address once read
    await pedro.fill("#new-password", "Revisar-Alertas-Cada-Mañana");
    await pedro.fill("#new-password-again", "Revisar-Alertas-Cada-Tarde");
    await pedro.click("#set-password-submit");
    expect(await pedro.textContent("#set-password-error")).toBe(
      "Las dos contraseñas no son iguales: escríbalas de nuevo.",
    );
    await pedro.fill("#new-password", "pedro.ruiz@exchange.mx-2026");
    await pedro.fill("#new-password-again", "pedro.ruiz@exchange.mx-2026");
    await pedro.click("#set-password-submit");
    // The service's rule, said in Spanish.
    await expect
      .poll(() => pedro.textContent("#set-password-error"))
      .toBe("La contraseña no puede contener su correo ni su nombre.");
    await spanishEverywhere(pedro);
    await snap(pedro, "13-set-password");
    await pedro.fill("#new-password", "Revisar-Alertas-Cada-Mañana");
    await pedro.fill("#new-password-again", "Revisar-Alertas-Cada-Mañana");
    await pedro.click("#set-password-submit");
    await pedro.waitForSelector("#password-set");
    await signIn(pedro, { email: "pedro.ruiz@exchange.mx", password: "Revisar-Alertas-Cada-Mañana" });
    await pedro.waitForSelector('#inbox[data-status="ready"]');
    expect(await pedro.locator("header").textContent()).toContain("Pedro Ruiz");
    await pedro.close();
  }, 120_000);

  it("an account with an authenticator: the page asks for its code after the password", async () => {
    // The viewer sets up TOTP through the session API (as her own settings would), then signs in in the browser.
    const login = await fetch(`${world.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: PEOPLE.viewer.email, password: PEOPLE.viewer.password }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const asHer = { cookie, "x-csrf-token": csrfToken, "content-type": "application/json" };
    const setup = await fetch(`${world.url}/auth/totp/setup`, { method: "POST", headers: asHer, body: "{}" });
    expect(setup.status).toBe(200);
    const { secret } = (await setup.json()) as { secret: string };
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const enabled = await fetch(`${world.url}/auth/totp/enable`, {
      method: "POST",
      headers: asHer,
      body: JSON.stringify({ code: totp.generate() }),
    });
    expect(enabled.status, await enabled.text()).toBeLessThan(300);

    const { page, problems } = await open();
    await page.goto(`${world.url}/app/lists`);
    await page.waitForURL(/\/app\/login/);
    await signIn(page, PEOPLE.viewer);
    await page.waitForSelector("#login-totp");
    await spanishEverywhere(page);
    await snap(page, "12-sign-in-totp");
    // The next step's code: the one used to enable it may not be used twice.
    await page.fill("#login-totp", totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.click("#login-form button[type=submit]");
    await page.waitForURL(`${world.url}/app/lists`);
    await page.waitForSelector("#lists");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
