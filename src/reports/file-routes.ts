// GET /v1/files/<path>?expires=&signed=&signature= (docs/api.md, "Compliance reports"): serves a report file to
// whoever holds its signed URL, without an API key, until it expires. The signature is checked before anything is
// looked up, so an altered or expired URL answers 403 and reveals nothing about what exists. A URL signed by a
// secret a rotation replaced grants only a file written before that rotation (signed-url.ts): a file written since,
// or none, answers the same 403, so the old secret learns nothing of what was written after it.
import { Type } from "@sinclair/typebox";
import { checkSignedPath } from "../platform/crypto/signed-url.ts";
import { AppError, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { FileResponse } from "../platform/http/schemas.ts";
import { isStoragePath } from "../platform/storage/index.ts";
import type { ReportsContext } from "./context.ts";
import { STORAGE_PATH_PATTERN } from "./routes.ts";
import { findByPath } from "./store.ts";

export function registerFileRoutes(app: HttpApp, ctx: ReportsContext): void {
  app.get(
    "/files/*",
    {
      config: { access: "public" },
      schema: {
        tags: ["Compliance reports"],
        summary: "Download a report file through its signed URL",
        description: "No API key: the signature grants the file until `expires`. Expired or altered: 403.",
        params: Type.Object({
          "*": Type.String({
            minLength: 1,
            maxLength: 512,
            pattern: STORAGE_PATH_PATTERN,
            description: "the report's path",
          }),
        }),
        querystring: Type.Object(
          {
            expires: Type.String({ pattern: "^\\d{1,12}$", description: "unix seconds" }),
            signed: Type.Optional(
              Type.String({
                pattern: "^\\d{1,12}$",
                description:
                  "unix seconds: when the URL was signed (absent from URLs made before it was carried)",
              }),
            ),
            signature: Type.String({
              pattern: "^[A-Za-z0-9_-]{1,100}$",
              description: "base64url HMAC-SHA256",
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: FileResponse(
            "The file, as an attachment (`content-disposition`), in its jurisdiction's format",
            {
              "application/xml": Type.String({ description: "Mexico's AVI (UTF-8)" }),
              "text/plain": Type.String({
                description:
                  "Colombia's, El Salvador's and Guatemala's layouts: ISO-8859-1, CRLF, fields separated by `|`",
              }),
            },
          ),
        },
      },
    },
    async (req, reply) => {
      const path = req.params["*"];
      const check = checkSignedPath(ctx.serverKeys, path, req.query, ctx.now());
      const refused = () =>
        new AppError(
          "forbidden",
          check.result === "expired" ? "This download link has expired" : "This download link is not valid",
        );
      if (check.result !== "valid") throw refused();
      const retiredAt = check.retiredAt;
      if (!isStoragePath(path)) throw retiredAt === undefined ? notFound("File") : refused();
      const report = await findByPath(ctx, path);
      if (retiredAt !== undefined && (!report || Date.parse(report.updated_at) > retiredAt)) throw refused();
      const content = report ? await ctx.store.get(report.storageKey) : undefined;
      if (!report || !content) throw notFound("File");
      return reply
        .header("content-type", report.mediaType)
        .header("content-disposition", `attachment; filename="${report.name}"`)
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .send(content);
    },
  );
}
