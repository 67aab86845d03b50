// HTTP routes of alerts (docs/api.md, "Alerts"). Thin: parse, authorise (route config), call a verb, shape the
// answer.

import { Type } from "@sinclair/typebox";
import type { Kysely } from "kysely";
import type { AddressCodec } from "../chains/address/index.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { ProjectParams } from "../platform/http/params.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import { actorName, actorOf } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { evidenceResponse, PACK_FORMATS, type PackFormat, sendEvidence } from "./evidence-file.ts";
import { exportEvidence, type MatchOf } from "./evidence-pack.ts";
import { listInbox } from "./inbox.ts";
import { langOf } from "./lang.ts";
import { getAlert } from "./read.ts";
import { noteFilingsMarked } from "./reported.ts";
import {
  AlertParams,
  AlertPatch,
  type AlertPatchBody,
  AlertQuery,
  AlertSchema,
  AlertWithHistorySchema,
} from "./schemas.ts";
import { patchAlert } from "./triage.ts";

export interface AlertsContext {
  db: Kysely<DB>;
  now: () => number;
  /** How each chain writes addresses, for the evidence files (the registry's codec). */
  codecOf: (chainId: number) => AddressCodec;
  /**
   * Marks filed the filings an alert closed as `reported` waited on (src/reports): the paths marked, and those not
   * marked with why. Absent where no reports are kept.
   */
  fileReported?: (
    projectId: number,
    alert: { id: string; filing: string | null; txHashes: readonly string[] },
    reference: string,
    actor: string,
  ) => Promise<{ paths: string[]; skipped: string[] }>;
  /** A person match side by side, for its evidence pack (src/screening/review); absent, the pack goes without. */
  matchOf?: MatchOf;
}

export function registerAlertRoutes(app: HttpApp, ctx: AlertsContext): void {
  const tags = ["Alerts"];
  app.get(
    "/projects/:projectId/alerts",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The project's alerts: the overdue ones first, then the newest",
        description:
          "Pages over every alert of the project (`limit`, `offset`): those whose deadline has passed and that are not closed come first, the most overdue first, then the others newest first. `total` is the number of alerts the filters select; `overdue` how many of them are overdue.",
        params: ProjectParams,
        querystring: AlertQuery,
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Array(AlertSchema),
            total: Type.Integer(),
            overdue: Type.Integer(),
          }),
        },
      },
    },
    async (req) => {
      const page = await listInbox(ctx.db, req.params.projectId, req.query, new Date(ctx.now()), langOf(req));
      return { success: true as const, data: page.alerts, total: page.total, overdue: page.overdue };
    },
  );

  app.get(
    "/projects/:projectId/alerts/:alertId",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "One alert with its history",
        params: AlertParams,
        response: { 200: Ok(AlertWithHistorySchema) },
      },
    },
    async (req) =>
      ok(await getAlert(ctx.db, req.params.projectId, req.params.alertId, new Date(ctx.now()), langOf(req))),
  );

  app.patch(
    "/projects/:projectId/alerts/:alertId",
    {
      config: { access: "officer" },
      schema: {
        tags,
        summary: "Triage an alert: its state, resolution, assignee, a note",
        description:
          "States `open`, `in_review`, `escalated`, `closed`; an invalid transition is 409 naming the allowed ones. Closing needs a `resolution` (`reported` also a `reference`). `assignee` is a person's user id (a key's label is still taken, deprecated).",
        params: AlertParams,
        body: AlertPatch,
        response: { 200: Ok(AlertWithHistorySchema) },
      },
    },
    async (req) => {
      const body = req.body as AlertPatchBody;
      const actor = actorName(actorOf(principalOf(req)));
      const lang = langOf(req);
      const alert = await patchAlert(
        ctx.db,
        req.params.projectId,
        req.params.alertId,
        body,
        actor,
        new Date(ctx.now()),
        lang,
      );
      // Closed as reported just now (a closed alert takes no second resolution): its filings are filed too.
      if (body.status === "closed" && body.resolution === "reported" && body.reference && ctx.fileReported) {
        const marked = await ctx.fileReported(
          req.params.projectId,
          {
            id: alert.id,
            filing: alert.deadline?.filing ?? null,
            txHashes: alert.evidence.transfers.map((t) => t.txHash),
          },
          body.reference,
          actor,
        );
        if (marked.paths.length + marked.skipped.length === 0) return ok(alert);
        await noteFilingsMarked(ctx.db, alert.id, marked, actor, new Date(ctx.now()));
        return ok(
          await getAlert(ctx.db, req.params.projectId, req.params.alertId, new Date(ctx.now()), lang),
        );
      }
      return ok(alert);
    },
  );

  app.get(
    "/projects/:projectId/alerts/:alertId/evidence",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The alert's evidence pack, as a file",
        description:
          "JSON (`format=json`, the default) or markdown (`format=md`): subject, cause, level and reason, the verdicts with model version, data coverage, findings and exposure paths with transaction hashes, the transfers, the law rules with their sources, the labels used with their sources, for a person match the client and the list entry side by side with why and the officer's review, and the triage history, each change also as a sentence naming who made it. Written in the request's language (`lang` in JSON). The same alert in the same state and language gives the same bytes; `x-evidence-sha256` is their SHA-256, which the alert's history keeps too.",
        params: AlertParams,
        querystring: Type.Object(
          { format: Type.Optional(StringEnum(PACK_FORMATS)) },
          { additionalProperties: false },
        ),
        response: { 200: evidenceResponse("vigia-alert-evidence/1") },
      },
    },
    async (req, reply) => {
      const format: PackFormat = (req.query as { format?: PackFormat }).format ?? "json";
      const file = await exportEvidence(
        ctx.db,
        req.params.projectId,
        req.params.alertId,
        format,
        actorName(actorOf(principalOf(req))),
        new Date(ctx.now()),
        ctx.codecOf,
        langOf(req),
        ctx.matchOf,
      );
      return sendEvidence(reply, file);
    },
  );
}
