// HTTP routes of risk analysis (docs/api.md, "Risk analysis"). Thin: parse, authorise
// (route config), call a verb, shape the answer.

import { Type } from "@sinclair/typebox";
import { type Admission, Overloaded } from "../platform/admission.ts";
import { AppError, invalid, MESSAGES } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { ProjectParams } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import type { AnalysisContext } from "./context.ts";
import { requestWindow } from "./dates.ts";
import { DEFAULT_DEPTH } from "./depth.ts";
import { readRiskJob, startRiskJob } from "./jobs.ts";
import { quickRisk } from "./quick.ts";
import { scanRisk } from "./scan.ts";
import {
  QuickQuery,
  QuickResponse,
  RiskJobBody,
  RiskJobView,
  ScanBody,
  ScanResponse,
  StoredQuery,
  StoredResponse,
} from "./schemas.ts";
import { storedScans } from "./stored.ts";
import { quickVerdict } from "./verdict.ts";
import { reasonEs } from "./words.ts";

const MAX_STORED_ADDRESSES = 100;

/**
 * The answer to a quick check refused for want of a place: one error for all of them (under overload thousands a
 * second; each new one would capture a stack trace nobody reads). Counted and logged by the admission's listener
 * (src/analysis/quick-admission.ts).
 */
const OVERLOADED = new AppError(
  "unavailable",
  "The service is answering as many quick checks as it can: retry after the time Retry-After gives",
  { retryAfter: 1, reported: true },
);

/** A quick check once it has a place (platform/admission.ts); past the wait, 503 with Retry-After. */
async function admitted<T>(
  admission: Admission,
  projectId: number,
  check: () => Promise<T>,
  waitedMs: number,
) {
  try {
    return await admission.run(projectId, check, waitedMs);
  } catch (error) {
    if (!(error instanceof Overloaded)) throw error;
    throw OVERLOADED;
  }
}

export function registerAnalysisRoutes(app: HttpApp, ctx: AnalysisContext): void {
  const tags = ["Risk analysis"];

  app.get(
    "/risk/quick",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary:
          "Quick risk check of one address (EVM hex; Tron base58check or hex; Bitcoin as its network writes it)",
        description: "Direct exposure and the patterns visible within one hop. `chainId` defaults to 1.",
        querystring: QuickQuery,
        response: { 200: Ok(QuickResponse) },
      },
    },
    async (req, reply) => {
      const chainId = req.query.chainId ?? 1;
      if (!ctx.registry.get(chainId)) throw ctx.registry.unknownChain(chainId);
      const parsed = ctx.registry.parseAddress(chainId, req.query.address);
      if ("error" in parsed)
        throw invalid(MESSAGES.invalidQuery, [{ path: "/address", message: parsed.error }]);
      const { projectId } = principalOf(req);
      // In Spanish the reason is written from the verdict's evidence (words.ts), which the same check keeps when
      // asked; in English it is the risk core's own sentence, as the API has always answered.
      const check =
        req.lang === "es"
          ? async () => {
              const verdict = await quickVerdict(ctx, projectId, parsed.address, chainId);
              const answer = verdict.quick ?? (await quickRisk(ctx, projectId, parsed.address, chainId));
              return { ...answer, reason: reasonEs(verdict, parsed.address) };
            }
          : () => quickRisk(ctx, projectId, parsed.address, chainId);
      return ok(
        await (ctx.quickAdmission
          ? admitted(ctx.quickAdmission, projectId, check, reply.elapsedTime)
          : check()),
      );
    },
  );

  app.post(
    "/projects/:projectId/addresses/scan-risk",
    {
      config: { access: "developer", heavy: true },
      schema: {
        tags,
        summary: "Scan 1 to 50 addresses for risk",
        description:
          "Each address is analysed to `maxDepth` hops (default 3). With `skipExisting` (default true) an address " +
          "analysed before by this project on the same chain and depth is answered from the stored result, " +
          "`status: skipped`. An unknown chain or a failing data source fails that address only. Durations in ms.",
        params: ProjectParams,
        body: ScanBody,
        response: { 200: Ok(ScanResponse) },
      },
    },
    async (req) =>
      ok(
        await scanRisk(ctx, {
          projectId: req.params.projectId,
          addresses: req.body.addresses,
          maxDepth: req.body.maxDepth ?? DEFAULT_DEPTH,
          skipExisting: req.body.skipExisting ?? true,
          lang: req.lang,
        }),
      ),
  );

  app.get(
    "/projects/:projectId/addresses/scan-risk",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Stored scan results",
        description:
          "The latest stored result of each address (comma-separated, at most 100) for this project: its newest " +
          "completed analysis of any kind (a scan, a risk job, an investigation; `source` says which). An address " +
          "without one is listed in `pendingAddresses` while an analysis of it is queued or running (a registered " +
          "address's first scan among them): poll again; otherwise in `missingAddresses`. A failed analysis, a " +
          "verdict withheld for want of current data (no_data) included, is never a stored result.",
        params: ProjectParams,
        querystring: StoredQuery,
        response: { 200: Ok(StoredResponse) },
      },
    },
    async (req) => {
      const addresses = req.query.addresses
        .split(",")
        .map((a) => a.trim())
        .filter((a) => a.length > 0);
      if (addresses.length === 0 || addresses.length > MAX_STORED_ADDRESSES)
        throw invalid(MESSAGES.invalidQuery);
      return ok(await storedScans(ctx, req.params.projectId, addresses, req.query.chainId, req.lang));
    },
  );

  app.post(
    "/risk",
    {
      config: { access: "developer", heavy: true },
      schema: {
        tags,
        summary: "Start an asynchronous risk analysis",
        description:
          "Analyses one address on one chain over a date window (`YYYY-MM-DD` or ISO 8601; both optional). " +
          "Poll GET /risk/{jobId} about once a second.",
        body: RiskJobBody,
        response: { 202: Ok(Type.Object({ jobId: Type.String() })) },
      },
    },
    async (req, reply) => {
      const { address, chainId, fromDate, toDate } = req.body;
      const { from, to } = requestWindow(fromDate, toDate);
      if (!ctx.registry.get(chainId)) throw ctx.registry.unknownChain(chainId);
      const parsed = ctx.registry.parseAddress(chainId, address);
      if ("error" in parsed)
        throw invalid(MESSAGES.invalidBody, [{ path: "/address", message: parsed.error }]);
      const jobId = await startRiskJob(ctx, {
        projectId: principalOf(req).projectId,
        address: parsed.address,
        chainId,
        from,
        to,
      });
      return reply.status(202).send(ok({ jobId }));
    },
  );

  app.get(
    "/risk/:jobId",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Result of an asynchronous risk analysis",
        params: Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Ok(RiskJobView) },
      },
    },
    async (req) => ok(await readRiskJob(ctx, principalOf(req).projectId, req.params.jobId, req.lang)),
  );
}
