// POST /projects/{projectId}/integration/test (docs/api.md, "Calls to the integrator"): an admin checks the
// project's integration endpoint and signature code with one signed profile request and one signed sample
// notification. Thin: parse, authorise, read the project, call, answer.
import { Type } from "@sinclair/typebox";
import { getProject, type KeysContext } from "../keys/index.ts";
import { FOREIGN_USER_ID_PATTERN } from "../monitoring/index.ts";
import { invalid } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { ProjectParams } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import type { OutboundClient } from "../platform/outbound/index.ts";
import { testIntegration } from "./integration-test.ts";

export interface NotificationsContext {
  keys: KeysContext;
  outbound: OutboundClient;
}

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
  app.post(
    "/projects/:projectId/integration/test",
    {
      config: { access: "admin" },
      schema: {
        tags: ["Calls to the integrator"],
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
