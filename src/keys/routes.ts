// HTTP routes of API keys (docs/api.md, "Authentication and roles" and "Projects and keys").
// Thin: parse, authorise (route config), call a verb, shape the answer.
import { Type } from "@sinclair/typebox";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf, ROLES } from "../platform/http/auth.ts";
import { Pagination, ProjectParams, page } from "../platform/http/params.ts";
import { Ok, OkEmpty, ok, StringEnum } from "../platform/http/schemas.ts";
import { actorOf } from "../projects/index.ts";
import { createKey, listKeys, revokeKey } from "./api-keys.ts";
import type { KeyAuthenticator } from "./authenticator.ts";
import type { KeysContext } from "./context.ts";

const RoleSchema = StringEnum(ROLES, { description: "admin ⊇ developer ⊇ viewer" });

const ApiKeySchema = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: "date-time" }),
  label: Type.String(),
  key: Type.String(),
  role: RoleSchema,
  last_used_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  revoked_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});

export function registerKeysRoutes(app: HttpApp, ctx: KeysContext, authenticator: KeyAuthenticator): void {
  const tags = ["Projects and keys"];

  app.post(
    "/projects/:projectId/keys",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Create an API key",
        description: "Returns the id of the new key; its value appears in the key list.",
        params: ProjectParams,
        body: Type.Object({
          label: Type.String({ minLength: 1, maxLength: 100 }),
          role: Type.Optional(RoleSchema),
        }),
        response: { 201: Ok(Type.Integer({ description: "id of the new key" })) },
      },
    },
    async (req, reply) => {
      const { id } = await createKey(
        ctx,
        req.params.projectId,
        { label: req.body.label, role: req.body.role ?? "developer" },
        actorOf(principalOf(req)),
      );
      return reply.status(201).send(ok(id));
    },
  );

  app.get(
    "/projects/:projectId/keys",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "List API keys",
        params: ProjectParams,
        querystring: Pagination,
        response: { 200: Ok(Type.Array(ApiKeySchema)) },
      },
    },
    async (req) => ok(await listKeys(ctx, req.params.projectId, page(req.query))),
  );

  app.delete(
    "/projects/:projectId/keys/:keyId",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Revoke an API key",
        params: Type.Object({
          projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
          keyId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
        }),
        response: { 200: OkEmpty },
      },
    },
    async (req) => {
      await revokeKey(ctx, req.params.projectId, req.params.keyId, actorOf(principalOf(req)));
      authenticator.forget(req.params.keyId);
      return { success: true as const };
    },
  );
}
