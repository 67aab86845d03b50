// The viewer's calls to the Vigía API (/v1, the `{success, data}` envelope), with errors turned into messages a
// compliance officer can act on, in her language. Signed in (a session cookie), the calls carry the cookie and no
// key; otherwise `x-api-key: ApiKey <key>`. Same origin as the page: neither ever leaves for another host. Every
// call asks for the page's language (Accept-Language), so the texts the service writes (the reason, the patterns'
// descriptions) come in it.
import { currentLang, t } from "./i18n.ts";
import type { Chain, Envelope, Investigation, LayerResult, Progress } from "./types.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** True when asking again later may work (network trouble, a busy or restarting service). */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** What the officer reads for a failed call; `signedIn`: by her session, not a key. */
export function explain(error: unknown, what: string, signedIn = false): string {
  if (!(error instanceof ApiError)) return `${what}: ${(error as Error)?.message ?? String(error)}`;
  switch (error.status) {
    case 0:
      return t("viewer.error.network", { what, message: error.message });
    case 401:
      return t(signedIn ? "viewer.error.401_session" : "viewer.error.401");
    case 403:
      return t(signedIn ? "viewer.error.403_session" : "viewer.error.403");
    case 404:
      return t("viewer.error.404", { what });
    case 429:
      return t("viewer.error.429", { what });
    default:
      return error.message
        ? t("viewer.error.other_message", { what, status: error.status, message: error.message })
        : t("viewer.error.other", { what, status: error.status });
  }
}

/** The signed-in person, when the page has a session (GET /auth/session answers 200). */
export interface SessionUser {
  projectId: number;
  lang?: string;
  timeZone?: string;
}

/** The session of this browser, or undefined (no session, or a service without sign-in). */
export async function readSession(): Promise<SessionUser | undefined> {
  try {
    const response = await fetch("/auth/session", {
      headers: { accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { user?: SessionUser; data?: { user?: SessionUser } };
    const user = body.user ?? body.data?.user;
    return user && typeof user.projectId === "number" ? user : undefined;
  } catch {
    return undefined;
  }
}

export class ApiClient {
  /** `key` undefined: the signed-in session's cookie authenticates the calls. */
  constructor(
    private readonly key: string | undefined,
    readonly projectId: string,
    private readonly base = "/v1",
  ) {}

  investigation(id: string): Promise<Investigation> {
    return this.get(
      `/projects/${encodeURIComponent(this.projectId)}/investigations/${encodeURIComponent(id)}`,
    );
  }

  progress(analysisId: string): Promise<Progress> {
    return this.get(`/analysis/${encodeURIComponent(analysisId)}/progress`);
  }

  layer(analysisId: string, layer: number): Promise<LayerResult> {
    return this.get(`/analysis/${encodeURIComponent(analysisId)}/layers/${layer}`);
  }

  /** The enabled chains, for their explorers' URLs. */
  chains(): Promise<Chain[]> {
    return this.get("/chains");
  }

  private async get<T>(path: string): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        headers: {
          ...(this.key ? { "x-api-key": `ApiKey ${this.key}` } : {}),
          accept: "application/json",
          "accept-language": currentLang(),
        },
        // Progress changes every poll; completed layers are cacheable and say so themselves.
        cache: path.endsWith("/progress") ? "no-store" : "default",
        credentials: this.key ? "omit" : "same-origin",
      });
    } catch (error) {
      throw new ApiError(0, "network", (error as Error).message);
    }
    let body: Envelope<T> | undefined;
    try {
      body = (await response.json()) as Envelope<T>;
    } catch {
      body = undefined;
    }
    if (!response.ok || !body?.success || body.data === undefined) {
      throw new ApiError(response.ok ? 502 : response.status, body?.error ?? "http", body?.message ?? "");
    }
    return body.data;
  }
}
