// HTTP routes of the match review (docs/api.md, "Match review"). Thin: parse, authorise (route config), call a verb,
// shape the answer.
import type { Kysely } from "kysely";
import { AlertParams } from "../../alerts/index.ts";
import { isLang, type Lang, negotiateLang } from "../../messages/index.ts";
import type { HttpApp } from "../../platform/http/app.ts";
import { principalOf } from "../../platform/http/auth.ts";
import { Ok, ok } from "../../platform/http/schemas.ts";
import { actorName, actorOf } from "../../projects/index.ts";
import type { DB } from "../../schema.ts";
import { reviewMatch } from "./decide.ts";
import { MatchReviewBody, type MatchReviewInput, MatchViewSchema } from "./schemas.ts";
import { matchView } from "./view.ts";

export interface MatchReviewContext {
  db: Kysely<DB>;
  now: () => number;
}

/** The request's language: the one the HTTP layer chose, else its Accept-Language. */
function langOf(req: { headers: Record<string, string | string[] | undefined> }): Lang {
  const chosen = (req as { lang?: unknown }).lang;
  if (isLang(chosen)) return chosen;
  const header = req.headers["accept-language"];
  return negotiateLang(null, Array.isArray(header) ? header.join(",") : header);
}

export function registerMatchReviewRoutes(app: HttpApp, ctx: MatchReviewContext): void {
  const tags = ["Alerts"];
  const view = (req: Parameters<typeof langOf>[0], projectId: number, alertId: string) =>
    matchView(ctx.db, projectId, alertId, langOf(req), principalOf(req as never).timeZone);

  app.get(
    "/projects/:projectId/alerts/:alertId/match",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "A person match side by side: the client as screened and the list entry, the score and why",
        description:
          "Only for `person_match` alerts (404 otherwise). `why` is in the request's language; `review` is the officer's decision, when taken.",
        params: AlertParams,
        response: { 200: Ok(MatchViewSchema) },
      },
    },
    async (req) => ok(await view(req, req.params.projectId, req.params.alertId)),
  );

  app.post(
    "/projects/:projectId/alerts/:alertId/match/review",
    {
      config: { access: "officer" },
      schema: {
        tags,
        summary: "Confirm or discard a person match, with the reason",
        description:
          "`confirm` escalates the alert (kept for the aviso); `discard` closes it as `false_positive`, and the same client and entry raise no alert again until the entry's content or the client's screened person changes. Both are kept in the alert's history and the audit log, naming who decided. A closed alert is 409.",
        params: AlertParams,
        body: MatchReviewBody,
        response: { 200: Ok(MatchViewSchema) },
      },
    },
    async (req) => {
      const { projectId, alertId } = req.params;
      const actor = actorName(actorOf(principalOf(req)));
      await reviewMatch(ctx.db, projectId, alertId, req.body as MatchReviewInput, actor, new Date(ctx.now()));
      return ok(await view(req, projectId, alertId));
    },
  );
}
