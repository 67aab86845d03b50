// The investigation viewer's and the officer's pages' routes, outside /v1 and outside the OpenAPI description: the
// viewer `GET /app/investigations/{id}`; the officer's pages (`/app`, `/app/login`, `/app/cases/{clientId}`,
// `/app/matches/{alertId}`, `/app/reports`, `/app/lists`, `/app/avisos/new`, `/app/users`: one page that routes in
// the browser); the old `/app/alerts` sent to `/app`; and their assets `GET /app/assets/{file}`. They are public:
// the pages hold no data, which comes from /v1 with the session cookie. Headers keep them tight: a strict
// Content-Security-Policy (same-origin script, style and fetch only, no inline script or style), no framing, no
// referrer.
import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { ASSET_PREFIX, loadViewerBundle, type ViewerAsset, type ViewerBundle } from "./bundle.ts";

export interface ViewerRoutesOptions {
  /** Where the bundle comes from (tests and the benchmark may pass their own); default: web/viewer/dist. */
  load?: () => Promise<ViewerBundle>;
}

const SECURITY_HEADERS = {
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

const hidden = { access: "public" as const };

export function registerViewerRoutes(app: HttpApp, options: ViewerRoutesOptions = {}): void {
  // One load per process, started by the first request; a failed build is retried by the next request.
  let loading: Promise<ViewerBundle> | undefined;
  const bundle = () => {
    loading ??= (options.load ?? (() => loadViewerBundle()))().catch((error: unknown) => {
      loading = undefined;
      throw new AppError("internal_error", "The investigation viewer could not be built", { cause: error });
    });
    return loading;
  };

  app.get(
    "/app/investigations/:id",
    {
      config: hidden,
      schema: { hide: true, params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }) },
    },
    async (request, reply) => send(request, reply, (await bundle()).page, "no-cache"),
  );

  // The officer's pages: the same page for each address; the app in it reads the address.
  const deskPage = async (request: FastifyRequest, reply: FastifyReply) =>
    send(request, reply, (await bundle()).desk, "no-cache");
  const Segment = Type.String({ minLength: 1, maxLength: 255 });
  for (const url of [
    "/app",
    "/app/login",
    "/app/cases",
    "/app/reports",
    "/app/lists",
    "/app/avisos/new",
    "/app/users",
  ])
    app.get(url, { config: hidden, schema: { hide: true } }, deskPage);
  app.get(
    "/app/cases/:clientId",
    { config: hidden, schema: { hide: true, params: Type.Object({ clientId: Segment }) } },
    deskPage,
  );
  app.get(
    "/app/matches/:alertId",
    { config: hidden, schema: { hide: true, params: Type.Object({ alertId: Segment }) } },
    deskPage,
  );
  // Where the desk used to be: bookmarks land on the inbox.
  app.get("/app/alerts", { config: hidden, schema: { hide: true } }, async (_request, reply) =>
    reply.redirect("/app", 302),
  );

  app.get(
    `${ASSET_PREFIX}:file`,
    {
      config: hidden,
      schema: {
        hide: true,
        params: Type.Object({ file: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const found = (await bundle()).assets.get(file);
      if (!found) throw new AppError("not_found", `No viewer asset ${file}`);
      // A versioned URL never changes content: cached for a year. Unversioned: revalidated each time.
      const cache = request.query.v === found.hash ? "public, max-age=31536000, immutable" : "no-cache";
      return send(request, reply, found, cache);
    },
  );
}

function send(request: FastifyRequest, reply: FastifyReply, asset: ViewerAsset, cacheControl: string) {
  const etag = `"${asset.hash}"`;
  reply
    .headers(SECURITY_HEADERS)
    .header("cache-control", cacheControl)
    .header("etag", etag)
    .header("vary", "accept-encoding")
    .type(asset.contentType);
  if (request.headers["if-none-match"] === etag) return reply.status(304).send();
  const accepts = String(request.headers["accept-encoding"] ?? "");
  if (/\bgzip\b/.test(accepts)) return reply.header("content-encoding", "gzip").send(asset.gzip);
  return reply.send(asset.body);
}
