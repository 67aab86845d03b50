// HTTP route of the case per client (docs/api.md, "Case per client"). Thin: parse, authorise (route config), call
// the verb.
import type { Kysely } from "kysely";
import { langOf } from "../alerts/index.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import type { DB } from "../schema.ts";
import { clientCase } from "./case.ts";
import { clientPicture, PICTURE_DAYS } from "./picture.ts";
import { ClientPictureSchema } from "./picture-schemas.ts";
import { CaseParams, CaseSchema } from "./schemas.ts";

export interface CasesContext {
  db: Kysely<DB>;
  now: () => number;
}

export function registerCaseRoutes(app: HttpApp, ctx: CasesContext): void {
  app.get(
    "/projects/:projectId/clients/:clientId/case",
    {
      config: { access: "viewer" },
      schema: {
        tags: ["Case per client"],
        summary:
          "A client's case: profile, screening, alerts grouped, addresses with their risk, avisos, files, timeline",
        description:
          "Everything the service holds about one client (the integrator's user id): the persons of its profile as last read, its screening, its alerts (the overdue first, linked ones grouped), its monitored addresses with the latest analysis of each, its avisos and report files, and a timeline in the answer's language. 404 for a client nothing names.",
        params: CaseParams,
        response: { 200: Ok(CaseSchema) },
      },
    },
    async (req) =>
      ok(
        await clientCase(ctx.db, req.params.projectId, req.params.clientId, new Date(ctx.now()), langOf(req)),
      ),
  );

  app.get(
    "/projects/:projectId/clients/:clientId",
    {
      config: { access: "viewer" },
      schema: {
        tags: ["Case per client"],
        summary:
          "One client, one picture: its risk from its wallets and its exchange operations, with the facts",
        description: `The client's risk level is the highest of its wallets' latest verdicts and its open alerts of the operation rules (fan-in, pass-through, fiat structuring, third-party funding, withdrawal to risk); \`drivers\` name each, highest first, with its reason in the answer's language. With the wallets, the open operation alerts and the client's operations of the last ${PICTURE_DAYS} days in figures (by kind, in USD; distinct payers and destinations). 404 for a client nothing names.`,
        params: CaseParams,
        response: { 200: Ok(ClientPictureSchema) },
      },
    },
    async (req) =>
      ok(
        await clientPicture(
          ctx.db,
          req.params.projectId,
          req.params.clientId,
          new Date(ctx.now()),
          langOf(req),
        ),
      ),
  );
}
