// POST /projects/{projectId}/integration/test (docs/api.md, "Calls to the integrator"): an admin checks the
// project's integration endpoint and signature code with one signed profile request and one signed sample
// notification. Thin: parse, authorise, read the project, call, answer.
import { Type } from "@sinclair/typebox";
import { getProject, type KeysContext } from "../keys/index.ts";
import { FOREIGN_USER_ID_PATTERN } from "../monitoring/index.ts";
import { invalid, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { Pagination, ProjectParams, page } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import type { OutboundClient } from "../platform/outbound/index.ts";
import { testIntegration } from "./integration-test.ts";
import { listNotifications, redeliver } from "./store.ts";
import { NOTIFICATION_STATUSES } from "./tables.ts";

export interface NotificationsContext {
  keys: KeysContext;
  outbound: OutboundClient;
  /** epoch milliseconds */
  now: () => number;
}

const Attempt = Type.Object({
  attempt: Type.Integer(),
  started_at: Type.String({ format: "date-time" }),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  duration_ms: Type.Integer(),
});

const NotificationSchema = Type.Object({
  id: Type.Integer(),
  message_id: Type.String({ description: "the webhook-id every attempt of the message carries" }),
  type: Type.Union([Type.Literal("notification"), Type.Literal("error")]),
  status: Type.Union(NOTIFICATION_STATUSES.map((s) => Type.Literal(s))),
  address_id: Type.Union([Type.Integer(), Type.Null()]),
  chain_id: Type.Union([Type.Integer(), Type.Null()]),
  tx_hash: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  delivered_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: "date-time" }),
  body: Type.Unknown({ description: "the body as it is sent" }),
  attempt_log: Type.Array(Attempt),
});

const Call = Type.Object({
  method: Type.String(),
  url: Type.String(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  ok: Type.Boolean(),
  latency_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  message_id: Type.String({ description: "the id the call was signed with (Standard Webhooks webhook-id)" }),
});

export function registerNotificationRoutes(app: HttpApp, ctx: NotificationsContext): void {
  const tags = ["Calls to the integrator"];

  app.get(
    "/projects/:projectId/notifications",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The notifications log, newest first, with every delivery attempt",
        params: ProjectParams,
        querystring: Type.Composite([
          Pagination,
          Type.Object({
            status: Type.Optional(Type.Union(NOTIFICATION_STATUSES.map((s) => Type.Literal(s)))),
          }),
        ]),
        response: { 200: Ok(Type.Array(NotificationSchema)) },
      },
    },
    async (req) =>
      ok(
        await listNotifications(ctx.keys.db, req.params.projectId, {
          ...page(req.query),
          status: req.query.status,
        }),
      ),
  );

  app.post(
    "/projects/:projectId/notifications/:id/redeliver",
    {
      config: { access: "developer" },
      schema: {
        tags,
        summary: "Send a delivered or failed notification again",
        description: "From now, with a fresh retry schedule and the same message id (webhook-id).",
        params: Type.Object({
          projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
          id: Type.String({ minLength: 1, maxLength: 40 }),
        }),
        response: { 202: Ok(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (req, reply) => {
      const id = /^[1-9]\d{0,15}$/.test(req.params.id) ? Number(req.params.id) : undefined;
      if (id === undefined || !(await redeliver(ctx.keys.db, req.params.projectId, id, new Date(ctx.now()))))
        throw notFound("Notification");
      return reply.status(202).send(ok({ id }));
    },
  );

  app.post(
    "/projects/:projectId/integration/test",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Test the integration endpoint and its signature check",
        description:
          "With `foreign_user_id`, calls `GET {integration_url}/users/{foreign_user_id}`; then POSTs a signed " +
          "sample notification (`data.test: true`) to `{integration_url}/webhook`. Answers each call's status, " +
          "latency and error. Calls to private addresses are refused unless the operator allows them.",
        params: ProjectParams,
        body: Type.Object({
          foreign_user_id: Type.Optional(Type.String({ pattern: FOREIGN_USER_ID_PATTERN })),
        }),
        response: { 200: Ok(Type.Object({ profile: Type.Union([Call, Type.Null()]), webhook: Call })) },
      },
    },
    async (req) => {
      const project = await getProject(ctx.keys, req.params.projectId);
      if (!project.integration_url)
        throw invalid("The project has no integration_url", [
          { path: "/integration_url", message: "set it with PATCH /projects/{projectId}" },
        ]);
      return ok(
        await testIntegration(
          ctx.outbound,
          {
            id: project.id,
            integrationUrl: project.integration_url,
            scheme: project.signing_scheme,
            secret: project.webhook_secret,
          },
          req.body.foreign_user_id,
        ),
      );
    },
  );
}
