// The officer's own avisos (docs/api.md, "Avisos"): POST /projects/{projectId}/avisos raises a 24-hour aviso of a
// client on a ground of the jurisdiction's closed, dated catalog (Mexico: behaviour, RCG Art. 26 Bis; adverse
// information, 26 Bis 1; a listed person, 26 Bis 2 and 27; an attempt, Reglamento Art. 7 Bis), with her narrative,
// the alerts it answers and the client's transactions it is about; the file is written by the workers within seconds
// (known-avisos.ts) and the filing calendar owes it. GET lists the project's avisos, those the screening raised too,
// with their state. Thin: parse, check against the catalog and the project's data, record.
import { randomUUID } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { missingAlerts } from "../alerts/index.ts";
import { type Aviso, avisoByReference, avisosOfProject, recordAviso } from "../avisos/index.ts";
import { exchangeClientOperations, hasOperations } from "../exchange-operations/index.ts";
import { basisVersionOn, type Jurisdiction, jurisdictionsOf } from "../jurisdictions/index.ts";
import { listAddresses, readClientOperations } from "../monitoring/index.ts";
import { invalid, MESSAGES } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { Pagination, ProjectParams, page } from "../platform/http/params.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import { zonedDay } from "../platform/time-zone.ts";
import { actorName, actorOf, projectJurisdictions, writeAudit } from "../projects/index.ts";
import { operationIdOfHash, operationTxHash } from "../regulation/index.ts";
import type { ReportsContext } from "./context.ts";

const AvisoBody = Type.Object(
  {
    userId: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "the client (the integrator's user id)",
    }),
    basis: Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        "the ground, from the jurisdiction's catalog (Mexico: `behaviour`, `adverse-information`, `listed-person`, `attempt`)",
    }),
    narrative: Type.String({
      minLength: 20,
      maxLength: 3000,
      description:
        "the facts, as the aviso's description of the alert will say them (written in upper case without accents in the file)",
    }),
    countryCode: Type.Optional(
      Type.String({
        pattern: "^[A-Z]{2}$",
        description: "the jurisdiction; the only one with avisos when absent",
      }),
    ),
    alertIds: Type.Optional(Type.Array(Type.String({ pattern: "^[1-9][0-9]{0,17}$" }), { maxItems: 50 })),
    txHashes: Type.Optional(
      Type.Array(Type.String({ pattern: "^(0x)?[0-9a-fA-F]{64}$" }), {
        maxItems: 50,
        description: "the client's checked transactions the aviso is about: they go into its operations",
      }),
    ),
    operationIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
        maxItems: 50,
        description:
          "the client's judged exchange operations (the integrator's `operationId`s) the aviso is about: they go into its operations in their blocks",
      }),
    ),
  },
  { additionalProperties: false },
);

const AvisoSchema = Type.Object({
  id: Type.String(),
  countryCode: Type.String(),
  userId: Type.String(),
  basis: Type.String(),
  source: Type.String({ description: "the legal source of the ground on the day it was known" }),
  origin: Type.String({
    description:
      "`officer`, `screening` (a client found on a list) or `attempt` (an operation told on a screening)",
  }),
  reference: Type.String(),
  period: Type.String(),
  knownAt: Type.String({ format: "date-time" }),
  deadline: Type.String({ format: "date-time" }),
  narrative: Type.String(),
  alertIds: Type.Array(Type.String()),
  txHashes: Type.Array(Type.String()),
  operationIds: Type.Array(Type.String()),
  createdBy: Type.String(),
  state: StringEnum(["pending", "written", "not_owed"], {
    description:
      "`pending`: its file is not written yet (or could not be: the filing calendar says why); `written`: see the filing calendar for filed or overdue; `not_owed`: the client is governed by another jurisdiction",
  }),
});

function view(j: Jurisdiction | undefined, a: Aviso) {
  const basis = j?.urgent?.bases.find((b) => b.id === a.basis);
  const day = j ? zonedDay(a.knownAt, j.timeZone) : "";
  const version = basisVersionOn(basis, day);
  return {
    id: a.id,
    countryCode: a.countryCode,
    userId: a.userId,
    basis: a.basis,
    source: version?.source ?? "",
    origin: a.origin,
    reference: a.reference,
    period: a.period,
    knownAt: a.knownAt.toISOString(),
    deadline: a.deadline.toISOString(),
    narrative: a.narrative,
    alertIds: a.alertIds,
    // An exchange operation is kept among the hashes as `op:` and its id (as the reports key it).
    txHashes: a.txHashes.filter((h) => operationIdOfHash(h) === undefined),
    operationIds: a.txHashes.flatMap((h) => operationIdOfHash(h) ?? []),
    createdBy: a.createdBy,
    state: !a.owed ? ("not_owed" as const) : a.settledAt ? ("written" as const) : ("pending" as const),
  };
}

const bad = (path: string, message: string) => invalid(MESSAGES.invalidBody, [{ path, message }]);

export function registerAvisoRoutes(app: HttpApp, ctx: ReportsContext): void {
  const tags = ["Compliance reports"];

  app.post(
    "/projects/:projectId/avisos",
    {
      config: { access: "officer" },
      schema: {
        tags,
        summary: "Raise a 24-hour aviso of a client",
        description:
          "The officer's own aviso, due 24 hours from now: `basis` from the jurisdiction's catalog in force today " +
          "(400 lists them), the `narrative` written in the file's description of the alert, the alerts it answers " +
          "(closed as `reported` when its file is marked filed) and the client's transactions and exchange operations it reports. The file " +
          "is written within seconds and the filing calendar owes it.",
        params: ProjectParams,
        body: AvisoBody,
        response: { 201: Ok(AvisoSchema) },
      },
    },
    async (req, reply) => {
      const projectId = req.params.projectId;
      const body = req.body;
      const now = new Date(ctx.now());
      const withAvisos = jurisdictionsOf(await projectJurisdictions(ctx.db, projectId)).filter(
        (j) => j.urgent,
      );
      const j = body.countryCode
        ? withAvisos.find((c) => c.code === body.countryCode)
        : withAvisos.length === 1
          ? withAvisos[0]
          : undefined;
      if (!j?.urgent)
        throw bad(
          "/countryCode",
          withAvisos.length === 0
            ? "the project enables no jurisdiction with 24-hour avisos (Mexico's)"
            : `one of ${withAvisos.map((c) => c.code).join(", ")}`,
        );
      const day = zonedDay(now, j.timeZone);
      const inForce = j.urgent.bases.filter((b) => basisVersionOn(b, day) !== undefined);
      const basis = inForce.find((b) => b.id === body.basis);
      if (!basis)
        throw bad(
          "/basis",
          `a ground of ${j.code}'s avisos in force on ${day}: ${inForce.map((b) => `${b.id} (${b.name})`).join("; ")}`,
        );
      const addresses = await listAddresses(ctx.db, projectId, {
        foreignUserId: body.userId,
        limit: 1,
        offset: 0,
      });
      // The account the file names: the client's monitored address, or (a client of the exchange's operations only)
      // the profile's account or the client's id, as the file falls back to.
      const account = addresses[0];
      if (!account && !(await hasOperations(ctx.db, projectId, body.userId)))
        throw bad(
          "/userId",
          `user ${body.userId} has neither a monitored address nor exchange operations in this project: register an address or send its operations first`,
        );
      const alertIds = [...new Set(body.alertIds ?? [])];
      const missing = await missingAlerts(ctx.db, projectId, alertIds);
      if (missing.length > 0) throw bad("/alertIds", `not alerts of this project: ${missing.join(", ")}`);
      const txHashes = [
        ...new Set((body.txHashes ?? []).map((h) => (h.startsWith("0x") ? h : `0x${h}`).toLowerCase())),
      ];
      if (txHashes.length > 0) {
        const found = await readClientOperations(ctx.db, ctx.registry, {
          projectId,
          userId: body.userId,
          txHashes,
          status: "checked",
          books: [{ code: j.code, timeZone: j.timeZone, currency: j.currency }],
        });
        const known = new Set(found.map((o) => o.txHash));
        const unknown = txHashes.filter((h) => !known.has(h));
        if (unknown.length > 0)
          throw bad("/txHashes", `not checked transactions of user ${body.userId}: ${unknown.join(", ")}`);
      }
      const operationIds = [...new Set(body.operationIds ?? [])];
      if (operationIds.length > 0) {
        const found = await exchangeClientOperations(ctx.db, {
          projectId,
          userId: body.userId,
          operationIds,
          status: "checked",
          books: [{ code: j.code, timeZone: j.timeZone, currency: j.currency }],
        });
        const known = new Set(found.map((o) => o.exchange?.operationId));
        const unknown = operationIds.filter((id) => !known.has(id));
        if (unknown.length > 0)
          throw bad(
            "/operationIds",
            `not judged exchange operations of user ${body.userId}: ${unknown.join(", ")} (a custody snapshot is none; a crypto movement the chain monitoring recorded is named by its transaction in txHashes)`,
          );
      }
      const actor = actorName(actorOf(principalOf(req)));
      const recorded = await ctx.db.transaction().execute(async (trx) => {
        const r = await recordAviso(trx, {
          projectId,
          countryCode: j.code,
          userId: body.userId,
          basis: basis.id,
          origin: "officer",
          causeKey: `officer:${randomUUID()}`,
          knownAt: now,
          dueWithinMs: j.urgent?.dueWithinMs ?? 24 * 3600_000,
          period: day.slice(0, 7),
          narrative: body.narrative,
          ...(account ? { account: account.address } : {}),
          alertIds,
          txHashes: [...txHashes, ...operationIds.map(operationTxHash)],
          createdBy: actor,
        });
        await writeAudit(trx, {
          projectId,
          actor,
          action: "avisos.raised",
          target: `avisos/${r.id}`,
          details: {
            userId: body.userId,
            basis: basis.id,
            countryCode: j.code,
            alertIds,
            txHashes,
            operationIds,
          },
        });
        return r;
      });
      // Read back by its reference (unique in the project and jurisdiction), not by scanning the newest page.
      const created = await avisoByReference(ctx.db, projectId, j.code, recorded.reference);
      return reply.status(201).send(ok(view(j, created as Aviso)));
    },
  );

  app.get(
    "/projects/:projectId/avisos",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The project's 24-hour avisos from knowledge, newest first",
        description:
          "Those the officer raised and those a screening raised (a client found on a list), each with its ground, " +
          "its source, its deadline and its state; each is also a filing of the calendar (`<code>-URGENT:<stem>`).",
        params: ProjectParams,
        querystring: Pagination,
        response: { 200: Ok(Type.Array(AvisoSchema)) },
      },
    },
    async (req) => {
      const found = await avisosOfProject(ctx.db, req.params.projectId, page(req.query));
      return ok(found.map((a) => view(jurisdictionsOf([a.countryCode])[0], a)));
    },
  );
}
