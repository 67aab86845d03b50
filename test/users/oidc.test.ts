// Signing in through an OpenID Connect provider: a real one (oidc-provider) on 127.0.0.1 with a test client and
// accounts, the flow driven over plain HTTP (the provider's own sign-in and consent forms, cookies kept by hand), the
// callback answered by the service. A person with an account signs in; an e-mail with no account, or one the
// provider did not verify, is refused (no sign-up through the provider).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcEnv, startOidcProvider, type TestProvider } from "../support/oidc-provider.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { PASSWORD } from "./support.ts";

const REDIRECT = "http://127.0.0.1:1/auth/oidc/callback";
const ACCOUNTS: Record<string, { email: string; email_verified: boolean }> = {
  ana: { email: "Ana.Oficial@example.mx", email_verified: true },
  stranger: { email: "stranger@example.mx", email_verified: true },
  unverified: { email: "unverified@example.mx", email_verified: false },
};

let provider: TestProvider;
let svc: TestService;

beforeAll(async () => {
  provider = await startOidcProvider(REDIRECT, ACCOUNTS);
  svc = await startTestService({ env: oidcEnv(provider, REDIRECT, "Empresa SSO") });
  const created = await svc.app?.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/users`,
    headers: auth(svc.project.keys.admin),
    payload: {
      email: "ana.oficial@example.mx",
      displayName: "Ana Oficial",
      role: "officer",
      password: PASSWORD,
    },
  });
  expect(created?.statusCode).toBe(201);
  await svc.app?.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/users`,
    headers: auth(svc.project.keys.admin),
    payload: {
      email: "unverified@example.mx",
      displayName: "Sin Verificar",
      role: "viewer",
      password: PASSWORD,
    },
  });
});
afterAll(async () => {
  await svc?.stop();
  provider?.close();
});

/** Cookies of the provider's site, kept as a browser would (by name; every path). */
class Jar {
  readonly cookies = new Map<string, string>();
  header = () => [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/**
 * Signs `accountId` in at the provider from the service's start redirect, and answers the service's callback
 * (injected: the redirect URL names no listening port).
 */
async function signInThroughProvider(accountId: string) {
  const start = await svc.app?.inject({ method: "GET", url: "/auth/oidc/start" });
  expect(start?.statusCode).toBe(302);
  const flowCookie = ((start?.cookies ?? []) as { name: string; value: string }[]).find(
    (c) => c.name === "vigia_oidc",
  );
  expect(flowCookie).toBeDefined();
  const authorize = new URL(String(start?.headers.location));
  expect(authorize.origin).toBe(provider.issuer);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(authorize.searchParams.get("nonce")).toBeTruthy();

  const jar = new Jar();
  let url = authorize.href;
  let method = "GET";
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(REDIRECT)) break;
    const res = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        cookie: jar.header(),
        ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(body ? { body } : {}),
    });
    jar.take(res);
    [method, body] = ["GET", undefined];
    if (res.status >= 300 && res.status < 400) {
      url = new URL(String(res.headers.get("location")), url).href;
      continue;
    }
    // A form of the provider's: the sign-in (any account id) or the consent.
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    expect(action, html.slice(0, 500)).toBeDefined();
    const prompt =
      /name="prompt" value="([^"]+)"/.exec(html)?.[1] ??
      (html.includes('name="login"') ? "login" : "consent");
    url = new URL(String(action), url).href;
    method = "POST";
    body = new URLSearchParams(
      prompt === "login" ? { prompt, login: accountId, password: "anything" } : { prompt },
    ).toString();
  }
  expect(url.startsWith(REDIRECT), url).toBe(true);
  const query = url.slice(url.indexOf("?"));
  return svc.app?.inject({
    method: "GET",
    url: `/auth/oidc/callback${query}`,
    headers: { cookie: `vigia_oidc=${flowCookie?.value}` },
  });
}

describe("OpenID Connect", () => {
  it("says it is on, and with which provider", async () => {
    const res = await svc.app?.inject({ method: "GET", url: "/auth/oidc" });
    expect(res?.json()).toEqual({ enabled: true, name: "Empresa SSO" });
  });

  it("signs a person with an account in: the session cookie and a redirect to /app", async () => {
    const callback = await signInThroughProvider("ana");
    expect(callback?.statusCode, callback?.body).toBe(302);
    expect(callback?.headers.location).toBe("/app");
    const session = ((callback?.cookies ?? []) as { name: string; value: string }[]).find(
      (c) => c.name === "vigia_session",
    );
    expect(session?.value).toBeTruthy();
    const me = await svc.app?.inject({
      method: "GET",
      url: "/auth/session",
      headers: { cookie: `vigia_session=${session?.value}` },
    });
    expect(me?.statusCode).toBe(200);
    expect(me?.json().user).toMatchObject({ email: "ana.oficial@example.mx", role: "officer" });
  });

  it("refuses an e-mail with no account, and one the provider did not verify", async () => {
    const stranger = await signInThroughProvider("stranger");
    expect(stranger?.statusCode).toBe(302);
    expect(stranger?.headers.location).toBe("/app/login#error=oidc.no_account&email=stranger%40example.mx");
    expect(((stranger?.cookies ?? []) as { name: string }[]).some((c) => c.name === "vigia_session")).toBe(
      false,
    );
    const unverified = await signInThroughProvider("unverified");
    expect(unverified?.headers.location).toBe("/app/login#error=oidc.unverified");
  });

  it("refuses a callback without the flow's cookie (another browser, a forged state)", async () => {
    const res = await svc.app?.inject({ method: "GET", url: "/auth/oidc/callback?code=abc&state=def" });
    expect(res?.headers.location).toBe("/app/login#error=oidc.failed");
  });
});
