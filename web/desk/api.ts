// The pages' calls to the service: same origin, the session cookie (never an API key in the browser), the CSRF
// token on every call that changes something, and the `{success, data}` envelope. A failure is an ApiError with
// the service's stable code and its message; a 401 on any call but the sign-in ones means the session ended, and
// sends her to sign-in with the page she was on kept for afterwards.
import type { Lang } from "../../src/messages/define.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = "";
let onExpired: () => void = () => {};

export const setCsrfToken = (token: string) => {
  csrfToken = token;
};
/** What to do when a call finds the session ended (the app sends her to sign-in). */
export const onSessionExpired = (handler: () => void) => {
  onExpired = handler;
};

export interface Page<T> {
  items: T[];
  total: number | null;
}

async function request(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && method !== "HEAD" && csrfToken) headers["x-csrf-token"] = csrfToken;
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      cache: "no-store",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    // The browser's own words ("Failed to fetch") are English and say no more than the catalog's line.
    throw new ApiError(0, "network", "");
  }
}

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as
    | { error?: string; message?: string; details?: { path: string; message: string }[] }
    | undefined;
  // A detail that repeats the message (a field's rule said once for the form) is not said twice.
  const details = body?.details
    ?.filter((d) => d.message !== body.message)
    .map((d) => `${d.path}: ${d.message}`)
    .join("; ");
  // An answer that is not the service's JSON (a proxy's error page): the code its status means.
  const byStatus =
    response.status === 404 ? "not_found" : response.status >= 500 ? "unavailable" : "invalid_request";
  return new ApiError(
    response.status,
    body?.error ?? byStatus,
    [body?.message, details].filter(Boolean).join(" — "),
  );
}

/** A call whose answer is read whole (the envelope's other fields, such as `total`, kept). */
export async function callRaw<T>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ data: T; total?: number; meta?: { total?: number } }> {
  const response = await request(method, path, body);
  if (!response.ok) {
    const error = await failure(response);
    if (response.status === 401 && !path.startsWith("/auth/")) onExpired();
    throw error;
  }
  if (response.status === 204) return { data: undefined as T };
  const envelope = (await response.json().catch(() => undefined)) as
    | { success?: boolean; data?: T; total?: number; meta?: { total?: number } }
    | undefined;
  if (!envelope) throw new ApiError(502, "http", "");
  // The session endpoints answer plain JSON; /v1 answers the envelope.
  if (envelope.success === undefined) return { data: envelope as T };
  if (!envelope.success) throw new ApiError(502, "http", "");
  return envelope as { data: T };
}

export const call = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  (await callRaw<T>(method, path, body)).data;
export const get = <T>(path: string) => call<T>("GET", path);

/** A paged list: the items and the total the service counted, when it says. */
export async function getPage<T>(path: string): Promise<Page<T>> {
  const raw = await callRaw<T[] | { items: T[]; total: number }>("GET", path);
  const data = raw.data;
  if (Array.isArray(data)) return { items: data, total: raw.total ?? raw.meta?.total ?? null };
  return { items: data.items, total: data.total };
}

/** A file from the service, downloaded as the browser's own download. */
export async function download(path: string, fallbackName: string): Promise<{ sha256: string }> {
  const response = await request("GET", path);
  if (!response.ok) throw await failure(response);
  const disposition = response.headers.get("content-disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { sha256: response.headers.get("x-evidence-sha256") ?? "" };
}

export const q = (params: Record<string, string | number | undefined | null>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : "";
};

export type { Lang };
