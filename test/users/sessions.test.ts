// People signing in: accounts created by an administrator, the sign-in with its limit and second factor, the
// session cookie with its CSRF token, idle and absolute expiry on a clock the test moves, sign-out, a disabled
// person, and the audit naming the person. On PGlite and PostgreSQL (VIGIA_TEST_DB=postgres).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "../../src/users/totp.ts";
import { auth } from "../support/service.ts";
import { Browser, type Clocked, clockedService, PASSWORD } from "./support.ts";

let t: Clocked;
beforeAll(async () => {
  t = await clockedService({ VIGIA_LOGIN_FAILURES_PER_EMAIL: "3", VIGIA_LOGIN_FAILURES_PER_ADDRESS: "10" });
});
afterAll(() => t.svc.stop());

const users = () => `/v1/projects/${t.svc.project.id}/users`;

async function createPerson(email: string, role: string, password: string | null = PASSWORD) {
  const res = await t.svc.app?.inject({
    method: "POST",
    url: users(),
    headers: auth(t.svc.project.keys.admin),
    payload: {
      email,
      displayName: `Persona ${email.split("@")[0]}`,
      role,
      ...(password ? { password } : {}),
    },
  });
  expect(res?.statusCode, res?.body).toBe(201);
  return res?.json().data as { user: { id: number }; setPasswordUrl?: string };
}

describe("accounts", () => {
  it("an admin creates people; a viewer may list them but not manage them", async () => {
    const { user } = await createPerson("ana.officer@example.mx", "officer");
    const list = await t.svc.app?.inject({
      method: "GET",
      url: users(),
      headers: auth(t.svc.project.keys.viewer),
    });
    expect(list?.statusCode).toBe(200);
    expect(list?.json().data).toContainEqual({
      id: user.id,
      email: "ana.officer@example.mx",
      displayName: "Persona ana.officer",
      role: "officer",
      disabledAt: null,
    });
    const refused = await t.svc.app?.inject({
      method: "POST",
      url: users(),
      headers: auth(t.svc.project.keys.viewer),
      payload: { email: "x@example.mx", displayName: "X", role: "viewer", password: PASSWORD },
    });
    expect(refused?.statusCode).toBe(403);
    // Another project's admin sees nothing of this one.
    const other = await t.svc.app?.inject({
      method: "GET",
      url: users(),
      headers: auth(t.svc.other.keys.admin),
    });
    expect(other?.statusCode).toBe(403);
  });

  it("refuses weak passwords with a message saying why, in the reader's language", async () => {
    const post = (password: string, lang = "es-MX") =>
      t.svc.app?.inject({
        method: "POST",
        url: users(),
        headers: { ...auth(t.svc.project.keys.admin), "accept-language": lang },
        payload: { email: "weak@example.mx", displayName: "Berta Weak", role: "viewer", password },
      });
    const short = await post("Tr0ub4dor&3");
    expect(short?.statusCode).toBe(400);
    expect(short?.json().message).toContain("al menos 15 caracteres");
    const common = await post("qwertyuiop12345", "en");
    expect(common?.json().message).toContain("most used or leaked");
    const personal = await post("my name is berta weak!!");
    expect(personal?.json().message).toContain("no puede contener su correo ni su nombre");
  });

  it("one account per e-mail across the service, whatever its case", async () => {
    await createPerson("dup@example.mx", "viewer");
    const again = await t.svc.app?.inject({
      method: "POST",
      url: `/v1/projects/${t.svc.other.id}/users`,
      headers: auth(t.svc.other.keys.admin),
      payload: { email: "DUP@example.mx", displayName: "Otra", role: "viewer", password: PASSWORD },
    });
    expect(again?.statusCode).toBe(409);
  });

  it("an account made without a password gets a one-time link that sets it", async () => {
    const { setPasswordUrl } = await createPerson("link@example.mx", "viewer", null);
    expect(setPasswordUrl).toMatch(/\/app\/login#set-password=/);
    const token = String(setPasswordUrl?.split("#set-password=")[1]);
    const browser = new Browser(t.svc, "10.0.0.9");
    expect((await browser.login("link@example.mx", PASSWORD)).statusCode).toBe(401);
    const set = await browser.request("POST", "/auth/password/set", { token, password: PASSWORD });
    expect(set.statusCode, set.body).toBe(200);
    expect(
      (await browser.request("POST", "/auth/password/set", { token, password: PASSWORD })).statusCode,
    ).toBe(400);
    expect((await browser.login("link@example.mx", PASSWORD)).statusCode).toBe(200);
  });
});

describe("signing in", () => {
  it("signs in, sets an HttpOnly SameSite=Strict cookie, and the session reads the API", async () => {
    await createPerson("lucia@example.mx", "officer");
    const browser = new Browser(t.svc);
    const res = await browser.login("Lucia@Example.mx", PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({
      email: "lucia@example.mx",
      role: "officer",
      lang: "es",
      timeZone: "America/Mexico_City",
      totpEnabled: false,
      projectId: t.svc.project.id,
    });
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toMatch(/vigia_session=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).not.toMatch(/Secure/); // plain HTTP here; Secure over TLS
    const session = await browser.request("GET", "/auth/session");
    expect(session.json()).toEqual({ user: res.json().user, csrfToken: browser.csrfToken });
    const alerts = await browser.request("GET", `/v1/projects/${t.svc.project.id}/alerts`);
    expect(alerts.statusCode).toBe(200);
    // Scoped to the person's project.
    expect((await browser.request("GET", `/v1/projects/${t.svc.other.id}/alerts`)).statusCode).toBe(403);
  });

  it("the same 401 for a wrong password or an unknown e-mail, then 429 with Retry-After past the limit", async () => {
    await createPerson("marta@example.mx", "viewer");
    const guesser = new Browser(t.svc, "10.1.1.1");
    const wrong = await guesser.login("marta@example.mx", "not the password at all");
    const unknown = await guesser.login("nobody@example.mx", "not the password at all");
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json().message).toBe(unknown.json().message);
    await guesser.login("marta@example.mx", "still not the password");
    await guesser.login("marta@example.mx", "and still not it");
    const limited = await guesser.login("marta@example.mx", PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // From another address, the e-mail is limited too: the right password waits out the window.
    const elsewhere = new Browser(t.svc, "10.1.1.2");
    expect((await elsewhere.login("marta@example.mx", PASSWORD)).statusCode).toBe(429);
    // When the window has passed, the person signs in.
    t.clock.now += 16 * 60_000;
    expect((await elsewhere.login("marta@example.mx", PASSWORD)).statusCode).toBe(200);
  });

  it("a browser that signed in before is not locked out by a guesser of its e-mail", async () => {
    await createPerson("sofia@example.mx", "viewer");
    const own = new Browser(t.svc, "10.2.0.1");
    expect((await own.login("sofia@example.mx", PASSWORD)).statusCode).toBe(200);
    const guesser = new Browser(t.svc, "10.2.0.2");
    for (let i = 0; i < 4; i++) await guesser.login("sofia@example.mx", `wrong guess number ${i}`);
    expect((await guesser.login("sofia@example.mx", PASSWORD)).statusCode).toBe(429);
    expect((await own.login("sofia@example.mx", PASSWORD)).statusCode).toBe(200);
  });

  it("an address is limited across e-mails", async () => {
    const sprayer = new Browser(t.svc, "10.3.0.1");
    for (let i = 0; i < 10; i++) await sprayer.login(`spray${i}@example.mx`, "a password for spraying");
    const res = await sprayer.login("lucia@example.mx", PASSWORD);
    expect(res.statusCode).toBe(429);
  });
});

describe("TOTP", () => {
  it("set up with a code, then required and checked at sign-in, each code once", async () => {
    await createPerson("rosa@example.mx", "officer");
    const browser = new Browser(t.svc, "10.4.0.1");
    await browser.login("rosa@example.mx", PASSWORD);
    const setup = await browser.request("POST", "/auth/totp/setup");
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, uri } = setup.json();
    expect(uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect((await browser.request("POST", "/auth/totp/enable", { code: "000000" })).statusCode).toBe(400);
    const enable = await browser.request("POST", "/auth/totp/enable", {
      code: totpCode(secret, t.clock.now),
    });
    expect(enable.statusCode, enable.body).toBe(200);

    t.clock.now += 60_000;
    const phone = new Browser(t.svc, "10.4.0.2");
    const asked = await phone.login("rosa@example.mx", PASSWORD);
    expect(asked.statusCode).toBe(400);
    expect(asked.json().error).toBe("totp_required");
    expect((await phone.login("rosa@example.mx", PASSWORD, "123456")).statusCode).toBe(401);
    const code = totpCode(secret, t.clock.now);
    expect((await phone.login("rosa@example.mx", PASSWORD, code)).statusCode).toBe(200);
    // The same code again is refused, even within its 30 seconds.
    expect((await new Browser(t.svc, "10.4.0.3").login("rosa@example.mx", PASSWORD, code)).statusCode).toBe(
      401,
    );
    // A wrong password with a right code answers as any wrong password.
    t.clock.now += 30_000;
    const wrongPassword = await new Browser(t.svc, "10.4.0.4").login(
      "rosa@example.mx",
      "not the password at all",
      totpCode(secret, t.clock.now),
    );
    expect(wrongPassword.statusCode).toBe(401);
  });
});

describe("sessions", () => {
  it("writes by cookie need the session's CSRF token", async () => {
    await createPerson("elena@example.mx", "officer");
    const browser = new Browser(t.svc, "10.5.0.1");
    await browser.login("elena@example.mx", PASSWORD);
    const without = await browser.request("PATCH", "/auth/session/settings", { lang: "en" }, { csrf: false });
    expect(without.statusCode).toBe(403);
    expect(without.json().message).toContain("x-csrf-token");
    const wrong = await browser.request(
      "PATCH",
      "/auth/session/settings",
      { lang: "en" },
      { csrf: false, headers: { "x-csrf-token": "forged" } },
    );
    expect(wrong.statusCode).toBe(403);
    const right = await browser.request("PATCH", "/auth/session/settings", { lang: "en", timeZone: "UTC" });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().user).toMatchObject({ lang: "en", timeZone: "UTC" });
    const badZone = await browser.request("PATCH", "/auth/session/settings", { timeZone: "Mars/Olympus" });
    expect(badZone.statusCode).toBe(400);
  });

  it("a sign-in from another site is refused", async () => {
    const browser = new Browser(t.svc, "10.5.0.2");
    const res = await browser.request(
      "POST",
      "/auth/login",
      { email: "elena@example.mx", password: PASSWORD },
      { headers: { origin: "https://evil.example" } },
    );
    expect(res.statusCode).toBe(403);
  });

  it("ends after the idle time and after the absolute time, on the service's clock", async () => {
    await createPerson("irene@example.mx", "viewer");
    const browser = new Browser(t.svc, "10.6.0.1");
    await browser.login("irene@example.mx", PASSWORD);
    t.clock.now += 29 * 60_000;
    expect((await browser.request("GET", "/auth/session")).statusCode).toBe(200);
    t.clock.now += 29 * 60_000; // active: the idle end moved
    expect((await browser.request("GET", "/auth/session")).statusCode).toBe(200);
    t.clock.now += 31 * 60_000;
    expect((await browser.request("GET", "/auth/session")).statusCode).toBe(401);

    await browser.login("irene@example.mx", PASSWORD);
    for (let hours = 0; hours < 12 * 4 - 1; hours++) {
      t.clock.now += 15 * 60_000;
      expect((await browser.request("GET", "/auth/session")).statusCode, `after ${hours}`).toBe(200);
    }
    t.clock.now += 15 * 60_000; // 12 h after signing in
    expect((await browser.request("GET", "/auth/session")).statusCode).toBe(401);
  });

  it("sign-out revokes the session (its cookie no longer works anywhere)", async () => {
    const browser = new Browser(t.svc, "10.7.0.1");
    await browser.login("irene@example.mx", PASSWORD);
    const stolen = browser.cookies.get("vigia_session");
    expect((await browser.request("POST", "/auth/logout")).statusCode).toBe(200);
    expect(browser.cookies.has("vigia_session")).toBe(false);
    const replay = await t.svc.app?.inject({
      method: "GET",
      url: "/auth/session",
      headers: { cookie: `vigia_session=${stolen}` },
    });
    expect(replay?.statusCode).toBe(401);
  });

  it("disabling a person or changing their role ends their sessions at once", async () => {
    const { user } = await createPerson("julia@example.mx", "officer");
    const browser = new Browser(t.svc, "10.8.0.1");
    await browser.login("julia@example.mx", PASSWORD);
    const patch = (body: Record<string, unknown>) =>
      t.svc.app?.inject({
        method: "PATCH",
        url: `${users()}/${user.id}`,
        headers: auth(t.svc.project.keys.admin),
        payload: body,
      });
    expect((await patch({ role: "viewer" }))?.statusCode).toBe(200);
    expect((await browser.request("GET", "/auth/session")).statusCode).toBe(401);
    const again = await browser.login("julia@example.mx", PASSWORD);
    expect(again.json().user.role).toBe("viewer");
    expect((await patch({ disabled: true }))?.json().data.disabledAt).not.toBeNull();
    expect((await browser.request("GET", "/auth/session")).statusCode).toBe(401);
    expect((await browser.login("julia@example.mx", PASSWORD)).statusCode).toBe(401);
  });

  it("a person's changes are audited as user:<id>", async () => {
    const { user } = await createPerson("carmen@example.mx", "admin");
    const browser = new Browser(t.svc, "10.9.0.1");
    await browser.login("carmen@example.mx", PASSWORD);
    const created = await browser.request("POST", users(), {
      email: "nuevo@example.mx",
      displayName: "Nuevo",
      role: "viewer",
      password: PASSWORD,
    });
    expect(created.statusCode, created.body).toBe(201);
    const audit = await t.svc.app?.inject({
      method: "GET",
      url: `/v1/projects/${t.svc.project.id}/audit?limit=100`,
      headers: auth(t.svc.project.keys.admin),
    });
    const entries = audit?.json().data as {
      actor: string;
      actorName: string | null;
      action: string;
      target: string;
    }[];
    expect(entries).toContainEqual(
      expect.objectContaining({
        actor: `user:${user.id}`,
        actorName: "Persona carmen",
        action: "user.created",
        target: `user:${created.json().data.user.id}`,
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ actor: `user:${user.id}`, action: "user.signed_in" }),
    );
    // The admin key that created Carmen is named by its label.
    const byKey = entries.find((e) => e.actor.startsWith("key:") && e.action === "user.created");
    expect(byKey?.actorName).toEqual(expect.any(String));
  });

  it("API keys work exactly as before, and a key is not a person", async () => {
    const res = await t.svc.app?.inject({
      method: "GET",
      url: `/v1/projects/${t.svc.project.id}/alerts`,
      headers: auth(t.svc.project.keys.viewer),
    });
    expect(res?.statusCode).toBe(200);
    const session = await t.svc.app?.inject({
      method: "GET",
      url: "/auth/session",
      headers: auth(t.svc.project.keys.viewer),
    });
    expect(session?.statusCode).toBe(401);
    // A key's write needs no CSRF token, even with a stale cookie beside it.
    const patch = await t.svc.app?.inject({
      method: "PATCH",
      url: `/v1/projects/${t.svc.project.id}`,
      headers: { ...auth(t.svc.project.keys.admin), cookie: "vigia_session=stale" },
      payload: { name: "Test project" },
    });
    expect(patch?.statusCode, patch?.body).toBe(200);
  });
});
