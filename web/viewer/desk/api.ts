// The desk's calls to the Vigía API: the alerts of one project, their triage and evidence, the wallet report, and
// opening an investigation for the graph viewer. Same origin as the page, `x-api-key: ApiKey <key>`, the
// `{success, data}` envelope; failures are ApiErrors (../api.ts) with the service's own message.
import { ApiError } from "../api.ts";
import type { Envelope } from "../types.ts";
import type { Alert, AlertWithHistory } from "./types.ts";

export interface EvidenceDownload {
  blob: Blob;
  fileName: string;
  sha256: string;
}

export class DeskClient {
  constructor(
    private readonly key: string,
    readonly projectId: string,
  ) {}

  private get project() {
    return `/v1/projects/${encodeURIComponent(this.projectId)}`;
  }

  alerts(filters: Record<string, string>): Promise<Alert[]> {
    const query = new URLSearchParams({ limit: "100" });
    for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
    return this.call(`${this.project}/alerts?${query}`);
  }

  alert(id: string): Promise<AlertWithHistory> {
    return this.call(`${this.project}/alerts/${encodeURIComponent(id)}`);
  }

  triage(id: string, body: Record<string, unknown>): Promise<AlertWithHistory> {
    return this.call(`${this.project}/alerts/${encodeURIComponent(id)}`, "PATCH", body);
  }

  /** Opens an incremental investigation of the address, for the graph viewer (a developer key). */
  investigate(address: string, chainId: number, name: string): Promise<{ id: string | number }> {
    return this.call(`${this.project}/investigations`, "POST", {
      name,
      wallet: address,
      chainId: String(chainId),
      incremental: true,
      maxDepth: 3,
    });
  }

  walletReport(address: string, chainId: number, lang: string): Promise<string> {
    return this.call(
      `/v1/wallets/${encodeURIComponent(address)}/report?chainId=${chainId}&lang=${encodeURIComponent(lang)}`,
    );
  }

  async evidence(id: string, format: "md" | "json"): Promise<EvidenceDownload> {
    const response = await this.fetch(
      `${this.project}/alerts/${encodeURIComponent(id)}/evidence?format=${format}`,
    );
    if (!response.ok) throw await failure(response);
    const disposition = response.headers.get("content-disposition") ?? "";
    return {
      blob: await response.blob(),
      fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? `alert-${id}-evidence.${format}`,
      sha256: response.headers.get("x-evidence-sha256") ?? "",
    };
  }

  private async fetch(path: string, method = "GET", body?: unknown): Promise<Response> {
    try {
      return await fetch(path, {
        method,
        headers: {
          "x-api-key": `ApiKey ${this.key}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        cache: "no-store",
        credentials: "omit",
      });
    } catch (error) {
      throw new ApiError(0, "network", (error as Error).message);
    }
  }

  private async call<T>(path: string, method = "GET", body?: unknown): Promise<T> {
    const response = await this.fetch(path, method, body);
    if (!response.ok) throw await failure(response);
    const envelope = (await response.json().catch(() => undefined)) as Envelope<T> | undefined;
    if (!envelope?.success || envelope.data === undefined) throw new ApiError(502, "http", "");
    return envelope.data;
  }
}

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as
    | (Envelope<unknown> & { details?: { path: string; message: string }[] })
    | undefined;
  const details = body?.details?.map((d) => `${d.path}: ${d.message}`).join("; ");
  return new ApiError(
    response.status,
    body?.error ?? "http",
    [body?.message, details].filter(Boolean).join(" — "),
  );
}
