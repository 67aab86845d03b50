// The viewer's calls to the Vigía API (/v1, `x-api-key: ApiKey <key>`, the `{success, data}` envelope), with
// errors turned into messages a compliance officer can act on. Same origin as the page: the API key never leaves
// for another host.
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

/** What the officer reads for a failed call. */
export function explain(error: unknown, what: string): string {
  if (!(error instanceof ApiError)) return `${what}: ${(error as Error)?.message ?? String(error)}`;
  switch (error.status) {
    case 0:
      return `${what}: the service cannot be reached (${error.message}). Retrying.`;
    case 401:
      return "The API key was rejected (401 Unauthorized): it is wrong, revoked or mistyped. Enter it again.";
    case 403:
      return "This API key may not read this project (403 Forbidden). Check the project id, or use a key of that project.";
    case 404:
      return `${what}: not found (404). Check the investigation and project ids.`;
    case 429:
      return `${what}: too many requests (429). Retrying shortly.`;
    default:
      return `${what}: the service answered ${error.status}${error.message ? ` (${error.message})` : ""}.`;
  }
}

export class ApiClient {
  constructor(
    private readonly key: string,
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
        headers: { "x-api-key": `ApiKey ${this.key}`, accept: "application/json" },
        // Progress changes every poll; completed layers are cacheable and say so themselves.
        cache: path.endsWith("/progress") ? "no-store" : "default",
        credentials: "omit",
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
