// POST/GET /projects/{projectId}/investigations[/{id}] (docs/api.md, "Investigations and layered analyses").
// Thin: parse, authorise (route config), call a verb, shape the answer.

import { Type } from "@sinclair/typebox";
import { evidenceResponse, PACK_FORMATS, type PackFormat, sendEvidence } from "../alerts/index.ts";
import type { AnalysisContext } from "../analysis/index.ts";
import { DEFAULT_DEPTH } from "../analysis/index.ts";
import { invalid, MESSAGES, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { isUuid, Pagination, ProjectParams, page } from "../platform/http/params.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import { createInvestigation } from "./create.ts";
import { investigationEvidence } from "./evidence.ts";
import { CreateBody, CreatedSchema, InvestigationParams, InvestigationSchema } from "./schemas.ts";
import { closeInvestigation, getInvestigation, type Investigation, listInvestigations } from "./store.ts";

export function registerInvestigationRoutes(
  app: HttpApp,
  ctx: AnalysisContext,
  caps: { openInvestigations: number },
): void {
  const tags = ["Investigations"];

  app.post(
    "/projects/:projectId/investigations",
    {
      config: { access: "developer", heavy: true },
      schema: {
        tags,
        summary: "Start an investigation of a wallet",
        description:
          "`wallet` (or its alias `address`) on `chainId` (default 1), analysed layer by layer to `maxDepth` hops " +
          "(1-7, default 3). An earlier analysis of the same wallet, chain and depth in this project is reused. " +
          "`incremental: true` answers at once; follow GET /analysis/{analysis_id}/progress and its layers. " +
          "Standard mode (default) answers when the analysis is complete, with its `graph`. Past the project's " +
          "cap of open investigations (VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT): 409.",
        params: ProjectParams,
        body: CreateBody,
        response: { 201: Ok(CreatedSchema) },
      },
    },
    async (req, reply) => {
      const { name, wallet, address, chainId, incremental, maxDepth } = req.body;
      if (name.trim().length === 0)
        throw invalid(MESSAGES.invalidBody, [{ path: "/name", message: "is empty" }]);
      const chain = Number(chainId ?? 1);
      if (!ctx.registry.get(chain)) throw ctx.registry.unknownChain(chain);
      // The wallet as its chain writes it; `address` is the older name of the field and must agree with it.
      const parse = (raw: string | undefined) =>
        raw === undefined ? undefined : ctx.registry.parseAddress(chain, raw);
      const parsed = parse(wallet ?? address);
      const other = wallet !== undefined && address !== undefined ? parse(address) : undefined;
      if (parsed === undefined || "error" in parsed)
        throw invalid(MESSAGES.invalidBody, [
          { path: "/wallet", message: parsed && "error" in parsed ? parsed.error : "is required" },
        ]);
      if (other !== undefined && (!("address" in other) || other.address !== parsed.address))
        throw invalid(MESSAGES.invalidBody, [
          { path: "/address", message: "names another wallet than `wallet`" },
        ]);
      const normalized = parsed.address;
      const created = await createInvestigation(
        ctx,
        {
          projectId: req.params.projectId,
          name: name.trim(),
          address: normalized,
          chainId: chain,
          incremental: incremental ?? false,
          maxDepth: maxDepth ?? DEFAULT_DEPTH,
        },
        caps.openInvestigations,
      );
      return reply.status(201).send(ok(created));
    },
  );

  app.get(
    "/projects/:projectId/investigations",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "List investigations, newest first",
        params: ProjectParams,
        querystring: Pagination,
        response: { 200: Ok(Type.Array(InvestigationSchema)) },
      },
    },
    async (req) => ok(await listInvestigations(ctx.db, req.params.projectId, page(req.query))),
  );

  app.get(
    "/projects/:projectId/investigations/:id",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Read an investigation",
        description: "Read it again until `analysis_id` is set; its status and score are its analysis's.",
        params: InvestigationParams,
        response: { 200: Ok(InvestigationSchema) },
      },
    },
    async (req) => {
      const found = isUuid(req.params.id)
        ? await getInvestigation(ctx.db, req.params.projectId, req.params.id.toLowerCase())
        : undefined;
      if (!found) throw notFound("Investigation");
      return ok(found);
    },
  );

  app.get(
    "/projects/:projectId/investigations/:id/evidence",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The investigation's evidence, as a file",
        description:
          "JSON (`format=json`, the default) or markdown (`format=md`): the investigation, its final verdict (score, level, reason, model version, data coverage, findings and exposure paths with transaction hashes) and the labels it names with their sources. 409 until its analysis has completed. `x-evidence-sha256` is the SHA-256 of the bytes.",
        params: InvestigationParams,
        querystring: Type.Object(
          { format: Type.Optional(StringEnum(PACK_FORMATS)) },
          { additionalProperties: false },
        ),
        response: { 200: evidenceResponse("vigia-investigation-evidence/1") },
      },
    },
    async (req, reply) => {
      const found = isUuid(req.params.id)
        ? await getInvestigation(ctx.db, req.params.projectId, req.params.id.toLowerCase())
        : undefined;
      if (!found) throw notFound("Investigation");
      const format: PackFormat = (req.query as { format?: PackFormat }).format ?? "json";
      const file = await investigationEvidence(
        ctx.db,
        found,
        req.params.projectId,
        format,
        ctx.registry.codec(found.chain_id),
      );
      return sendEvidence(reply, file);
    },
  );

  app.post(
    "/projects/:projectId/investigations/:id/close",
    {
      config: { access: "developer" },
      schema: {
        tags,
        summary: "Close an investigation",
        description:
          "It is kept and readable, with `closed_at`; it no longer counts against the project's cap of open " +
          "investigations. Closing a closed one changes nothing.",
        params: InvestigationParams,
        response: { 200: Ok(InvestigationSchema) },
      },
    },
    async (req) => {
      const { projectId } = req.params;
      const id = req.params.id.toLowerCase();
      if (!isUuid(id) || !(await closeInvestigation(ctx.db, projectId, id))) throw notFound("Investigation");
      return ok((await getInvestigation(ctx.db, projectId, id)) as Investigation);
    },
  );
}
