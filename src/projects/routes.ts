// HTTP routes of a project's settings and audit trail (docs/api.md, "Projects and keys"). Thin: parse, authorise
// (route config), call a verb, shape the answer. The parts other rooms own (the integrator's fields) come from the
// composition root and show in the same schema.
import { Type } from "@sinclair/typebox";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { Pagination, ProjectParams, page } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import { actorOf } from "./actor.ts";
import { listAudit } from "./audit.ts";
import type { ProjectsContext } from "./context.ts";
import { getProject, updateProject } from "./projects.ts";
import { AuditSchema, ProjectFields, type ProjectPatch, ProjectPatchFields } from "./schemas.ts";

export function registerProjectRoutes(app: HttpApp, ctx: ProjectsContext): void {
  const tags = ["Projects and keys"];
  const ProjectSchema = Type.Object(Object.assign({}, ProjectFields, ...ctx.parts.map((p) => p.view)));
  const ProjectPatchSchema = Type.Object(
    Object.assign({}, ProjectPatchFields, ...ctx.parts.map((p) => p.patch)),
    { minProperties: 1, additionalProperties: false },
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
    // The settings were checked against each jurisdiction's own schema (built from the registry).
    async (req) =>
      ok(await updateProject(ctx, req.params.projectId, req.body as ProjectPatch, actorOf(principalOf(req)))),
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
    async (req) => {
      const projectId = req.params.projectId;
      const [entries, names] = await Promise.all([
        listAudit(ctx.db, projectId, page(req.query)),
        ctx.actorNames?.(projectId),
      ]);
      return ok(entries.map((e) => ({ ...e, actorName: names?.get(e.actor) ?? null })));
    },
  );
}
