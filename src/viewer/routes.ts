// The investigation viewer's and the officer's desk's routes, outside /v1 and outside the OpenAPI description: the
// pages `GET /app/investigations/{id}` and `GET /app/alerts`, and their assets `GET /app/assets/{file}`. They are public: the page holds no
// data, and the API key the officer types in goes only to /v1, from the browser. Headers keep the page that
// holds a key tight: a strict Content-Security-Policy (same-origin script, style and fetch only), no framing,
// no referrer.
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

  app.get(
    "/app/alerts",
    {
      config: hidden,
      schema: {
        hide: true,
        querystring: Type.Object({
          project: Type.Optional(Type.String({ maxLength: 20 })),
          lang: Type.Optional(Type.String({ maxLength: 5 })),
        }),
      },
    },
    async (request, reply) => send(request, reply, (await bundle()).desk, "no-cache"),
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
