// HTTP routes of projects and API keys (docs/api.md, "Authentication and roles" and "Projects and keys").
// Thin: parse, authorise (route config), call a verb, shape the answer.
import { Type } from "@sinclair/typebox";
import {
  ClientJurisdictionSchema,
  JURISDICTION_CODES,
  JURISDICTIONS,
  MEXICO,
} from "../jurisdictions/index.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf, ROLES } from "../platform/http/auth.ts";
import { Pagination, ProjectParams, page } from "../platform/http/params.ts";
import { Ok, OkEmpty, ok } from "../platform/http/schemas.ts";
import { createKey, listKeys, revokeKey } from "./api-keys.ts";
import { listAudit } from "./audit.ts";
import type { KeyAuthenticator } from "./authenticator.ts";
import type { KeysContext } from "./context.ts";
import { getProject, type ProjectPatch, rotateWebhookSecret, updateProject } from "./projects.ts";

const RoleSchema = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  { description: "admin ⊇ developer ⊇ viewer" },
);

const ApiKeySchema = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: "date-time" }),
  label: Type.String(),
  key: Type.String(),
  role: RoleSchema,
  last_used_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  revoked_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});

/** The MX settings without the accumulation choice: the earlier `mx_reporting_entity`. */
const MxReportingEntitySchema = Type.Omit(MEXICO.settings, ["accumulation"], { additionalProperties: false });

/** Each jurisdiction's settings, by code, as its own schema wants them (null removes them). */
const JurisdictionSettingsSchema = Type.Object(
  Object.fromEntries(
    JURISDICTIONS.map((j) => [j.code, Type.Optional(Type.Union([j.settings, Type.Null()]))]),
  ),
  {
    additionalProperties: false,
    description:
      'each jurisdiction\'s reporting entity settings, by code (docs/api.md, "Project settings of the jurisdictions")',
  },
);
const JurisdictionSettingsView = Type.Object(
  Object.fromEntries(JURISDICTIONS.map((j) => [j.code, Type.Optional(j.settings)])),
);

const SigningSchemeSchema = Type.Union([Type.Literal("standard-webhooks"), Type.Literal("hmac-canonical")]);
const JurisdictionsSchema = Type.Array(Type.Union(JURISDICTION_CODES.map((j) => Type.Literal(j))), {
  maxItems: JURISDICTION_CODES.length,
  uniqueItems: true,
});

const ProjectSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  integration_url: Type.Union([Type.String(), Type.Null()]),
  jurisdictions: Type.Array(Type.String()),
  signing_scheme: SigningSchemeSchema,
  webhook_secret: Type.String(),
  jurisdiction_settings: JurisdictionSettingsView,
  client_jurisdiction: Type.Union([ClientJurisdictionSchema, Type.Null()]),
  mx_reporting_entity: Type.Union([MxReportingEntitySchema, Type.Null()], {
    description: "jurisdiction_settings.MX without `accumulation` (its earlier name)",
  }),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
});

const ProjectPatchSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    integration_url: Type.Optional(
      Type.Union([Type.String({ pattern: "^https?://[^\\s]+$", maxLength: 2000 }), Type.Null()]),
    ),
    jurisdictions: Type.Optional(JurisdictionsSchema),
    signing_scheme: Type.Optional(SigningSchemeSchema),
    jurisdiction_settings: Type.Optional(JurisdictionSettingsSchema),
    client_jurisdiction: Type.Optional(Type.Union([ClientJurisdictionSchema, Type.Null()])),
    mx_reporting_entity: Type.Optional(
      Type.Union([MxReportingEntitySchema, Type.Null()], {
        description: "sets jurisdiction_settings.MX's entity",
      }),
    ),
  },
  { minProperties: 1, additionalProperties: false },
);

const AuditSchema = Type.Object({
  id: Type.String(),
  actor: Type.String(),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String({ format: "date-time" }),
});

export function registerKeysRoutes(app: HttpApp, ctx: KeysContext, authenticator: KeyAuthenticator): void {
  const tags = ["Projects and keys"];
  const actorOf = (req: Parameters<typeof principalOf>[0]) => ({
    kind: "key" as const,
    keyId: principalOf(req).keyId,
  });

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
        actorOf(req),
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
      await revokeKey(ctx, req.params.projectId, req.params.keyId, actorOf(req));
      authenticator.forget(req.params.keyId);
      return { success: true as const };
    },
  );

  app.get(
    "/projects/:projectId",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Read project settings",
        params: ProjectParams,
        response: { 200: Ok(ProjectSchema) },
      },
    },
    async (req) => ok(await getProject(ctx, req.params.projectId)),
  );

  app.patch(
    "/projects/:projectId",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Change project settings",
        description: "Changing `signing_scheme` issues a new webhook secret in that scheme's format.",
        params: ProjectParams,
        body: ProjectPatchSchema,
        response: { 200: Ok(ProjectSchema) },
      },
    },
    // The settings were checked against each jurisdiction's own schema (built from the registry above).
    async (req) => ok(await updateProject(ctx, req.params.projectId, req.body as ProjectPatch, actorOf(req))),
  );

  app.post(
    "/projects/:projectId/webhook-secret",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Rotate the webhook signing secret",
        params: ProjectParams,
        response: { 200: Ok(Type.Object({ webhook_secret: Type.String() })) },
      },
    },
    async (req) => ok({ webhook_secret: await rotateWebhookSecret(ctx, req.params.projectId, actorOf(req)) }),
  );

  app.get(
    "/projects/:projectId/audit",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Audit trail of key and settings changes",
        params: ProjectParams,
        querystring: Pagination,
        response: { 200: Ok(Type.Array(AuditSchema)) },
      },
    },
    async (req) => ok(await listAudit(ctx.db, req.params.projectId, page(req.query))),
  );
}
