// HTTP routes of the calls to the integrator (docs/api.md, "Calls to the integrator"): the notifications log and
// redelivery (limited per project and minute, and refused while the project's outbox is full), the endpoint check
// an admin runs before going live (one signed profile request and one signed sample notification, with the current
// secret), and the rotation of the webhook secret. Thin: parse, authorise, call, answer.
import { Type } from "@sinclair/typebox";
import { AppError, invalid, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { Pagination, ProjectParams, page } from "../platform/http/params.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import { actorOf } from "../projects/index.ts";
import type { IntegratorContext } from "./context.ts";
import { checkEndpoint } from "./endpoint-check.ts";
import { listNotifications, openMessages, recentRedeliveries, redeliverWithinLimit } from "./outbox.ts";
import {
  MAX_KEEP_PREVIOUS_HOURS,
  projectIntegration,
  rotateWebhookSecret,
  WEBHOOK_SECRET_GRACE_MS,
} from "./settings.ts";
import { NOTIFICATION_STATUSES } from "./tables.ts";
import { checkForeignUserId, ForeignUserIdSchema } from "./user-id.ts";

/** The per-project limits of the routes, from the configuration table (src/platform/config.ts). */
export interface IntegratorLimits {
  /** VIGIA_REDELIVERIES_PER_MINUTE */
  redeliveriesPerMinute: number;
  /** VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT */
  maxPendingNotifications: number;
}

/** 429 when the project's outbox holds its cap of messages waiting: nothing more is queued on request. */
export async function refuseWhenOutboxFull(
  ctx: IntegratorContext,
  limits: IntegratorLimits,
  projectId: number,
): Promise<void> {
  const open = await openMessages(ctx.db, projectId);
  if (open >= limits.maxPendingNotifications)
    throw new AppError(
      "rate_limited",
      `The project has ${open} notifications waiting to be delivered, its cap (VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT = ${limits.maxPendingNotifications}): fix the integration endpoint so that they are delivered (GET /projects/{projectId}/notifications shows their errors), then try again`,
      { retryAfter: 60 },
    );
}

const Attempt = Type.Object({
  attempt: Type.Integer(),
  started_at: Type.String({ format: "date-time" }),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  duration_ms: Type.Integer(),
  refused_old_secret: Type.Optional(
    Type.Object(
      { status_code: Type.Integer(), duration_ms: Type.Integer() },
      {
        description:
          "during a rotation of an hmac-canonical secret: the integrator refused the call signed with the rotated-out secret (this status), and this attempt is the same call sent again at once signed with the new one",
      },
    ),
  ),
});

const NotificationSchema = Type.Object({
  id: Type.Integer(),
  message_id: Type.String({ description: "the webhook-id every attempt of the message carries" }),
  type: StringEnum(["notification", "error"]),
  status: StringEnum(NOTIFICATION_STATUSES),
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

export function registerIntegratorRoutes(
  app: HttpApp,
  ctx: IntegratorContext,
  limits: IntegratorLimits,
): void {
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
            status: Type.Optional(StringEnum(NOTIFICATION_STATUSES)),
          }),
        ]),
        response: { 200: Ok(Type.Array(NotificationSchema)) },
      },
    },
    async (req) =>
      ok(
        await listNotifications(ctx.db, req.params.projectId, {
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
        description:
          "From now, with a fresh retry schedule and the same message id (webhook-id). At most " +
          "VIGIA_REDELIVERIES_PER_MINUTE a minute per project (429), and none while the project's outbox holds " +
          "VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT messages (429).",
        params: Type.Object({
          projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
          id: Type.String({ minLength: 1, maxLength: 40 }),
        }),
        response: { 202: Ok(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (req, reply) => {
      const id = /^[1-9]\d{0,15}$/.test(req.params.id) ? Number(req.params.id) : undefined;
      const at = new Date(ctx.now());
      const { projectId } = req.params;
      const limited = (recent: number) =>
        new AppError(
          "rate_limited",
          `The project asked for ${recent} redeliveries in the last minute, its limit (VIGIA_REDELIVERIES_PER_MINUTE = ${limits.redeliveriesPerMinute}): try again in a minute`,
          { retryAfter: 60 },
        );
      const recent = await recentRedeliveries(ctx.db, projectId, at);
      if (recent >= limits.redeliveriesPerMinute) throw limited(recent);
      await refuseWhenOutboxFull(ctx, limits, projectId);
      if (id === undefined) throw notFound("Notification");
      // Counted again and done under the project's lock: requests at once cannot all pass the limit.
      const outcome = await redeliverWithinLimit(ctx.db, projectId, id, at, limits.redeliveriesPerMinute);
      if ("limited" in outcome) throw limited(outcome.limited);
      if (!outcome.found) throw notFound("Notification");
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
          foreign_user_id: Type.Optional(ForeignUserIdSchema),
        }),
        response: { 200: Ok(Type.Object({ profile: Type.Union([Call, Type.Null()]), webhook: Call })) },
      },
    },
    async (req) => {
      const { projectId } = req.params;
      if (req.body.foreign_user_id !== undefined)
        checkForeignUserId(req.body.foreign_user_id, "/foreign_user_id");
      const integration = await projectIntegration(ctx.db, ctx.serverKeys, projectId, new Date(ctx.now()));
      if (!integration.integrationUrl)
        throw invalid("The project has no integration_url", [
          { path: "/integration_url", message: "set it with PATCH /projects/{projectId}" },
        ]);
      return ok(
        await checkEndpoint(
          ctx.outbound,
          {
            id: projectId,
            integrationUrl: integration.integrationUrl,
            scheme: integration.scheme,
            secret: integration.secrets[0] as string,
          },
          req.body.foreign_user_id,
        ),
      );
    },
  );

  app.post(
    "/projects/:projectId/webhook-secret",
    {
      config: { access: "admin" },
      schema: {
        tags: ["Projects and keys"],
        summary: "Rotate the webhook signing secret",
        description:
          "Issues a new secret. The one it replaces keeps signing for `keep_previous_hours` (default 24; 0: not at " +
          "all): beside the new one under standard-webhooks; under hmac-canonical, first, each call sent again at " +
          "once with the new one when the integrator refuses it (401 or 403), until the integrator accepts a call " +
          "signed with the new one. A receiver that knows only the old secret, then only the new, fails no call.",
        params: ProjectParams,
        body: Type.Optional(
          Type.Object(
            {
              keep_previous_hours: Type.Optional(
                Type.Integer({
                  minimum: 0,
                  maximum: MAX_KEEP_PREVIOUS_HOURS,
                  description: "how long the rotated-out secret may keep signing, in hours (default 24)",
                }),
              ),
            },
            { examples: [{ keep_previous_hours: 24 }] },
          ),
        ),
        response: { 200: Ok(Type.Object({ webhook_secret: Type.String() })) },
      },
    },
    async (req) => {
      const hours = req.body?.keep_previous_hours;
      return ok({
        webhook_secret: await rotateWebhookSecret(
          ctx.db,
          ctx.serverKeys,
          req.params.projectId,
          actorOf(principalOf(req)),
          hours === undefined ? WEBHOOK_SECRET_GRACE_MS : hours * 3_600_000,
        ),
      });
    },
  );
}
