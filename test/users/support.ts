// What the users tests share: a service on a clock they move, and a browser-like client that keeps its cookies and
// sends the session's CSRF token on writes.
import type { LightMyRequestResponse } from "fastify";
import { startTestService, type TestService } from "../support/service.ts";

export interface Clocked {
  svc: TestService;
  clock: { now: number };
}

export async function clockedService(env: Record<string, string> = {}): Promise<Clocked> {
  const clock = { now: Date.parse("2026-11-30T15:00:00Z") };
  const svc = await startTestService({ env, service: { clock: () => clock.now } });
  return { svc, clock };
}

type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** A browser: its cookies, and the CSRF token it was given at sign-in. */
export class Browser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(
    private readonly svc: TestService,
    readonly address = "127.0.0.1",
  ) {}

  async request(
    method: Method,
    url: string,
    body?: unknown,
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if ((opts.csrf ?? true) && method !== "GET" && this.csrfToken) headers["x-csrf-token"] = this.csrfToken;
    const app = this.svc.app;
    if (!app) throw new Error("the test service serves no HTTP");
    const res = await app.inject({
      method,
      url,
      headers,
      remoteAddress: this.address,
      ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
    });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      if (c.value === "" || c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now()))
        this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  async login(email: string, password: string, totp?: string): Promise<LightMyRequestResponse> {
    const res = await this.request("POST", "/auth/login", { email, password, ...(totp ? { totp } : {}) });
    if (res.statusCode === 200) this.csrfToken = res.json().csrfToken;
    return res;
  }
}

export const PASSWORD = "correct horse battery staple";
