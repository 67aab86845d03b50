// Generating a jurisdiction's files of a project for a month (docs/api.md, "Compliance reports"): on demand
// (POST /reports/generate) or on schedule after the month closes (schedule.ts). Reads the operations monitoring
// judged, lets the jurisdiction build its files (src/jurisdictions: its own clients only), and writes them with their
// versions (files.ts). Every generation is recorded with what it wrote and why any file was not; each file that
// could not be written is also logged, counted, audited, listed by GET /reports, and notified to the integrator
// once (failures.ts).

import { exchangeClientOperations, nativeCoins } from "../exchange-operations/index.ts";
import { type Jurisdiction, jurisdiction } from "../jurisdictions/index.ts";
import { readClientOperations } from "../monitoring/index.ts";
import { invalid, notFound } from "../platform/errors.ts";
import { projectCompliance, projectExists, writeAudit } from "../projects/index.ts";
import { clientMatches, NOT_SCREENED } from "../screening/index.ts";
import type { ReportsContext } from "./context.ts";
import { failuresInTransaction, logFailures } from "./failures.ts";
import { folderOf, type Month, type Unbuilt, type WriteResult, writeFiles } from "./files.ts";
import { periodBounds } from "./period.ts";
import { clientSource, GOVERNED_ELSEWHERE } from "./profiles.ts";
import { settle } from "./settle.ts";
import type { GenerationTrigger } from "./tables.ts";
import { owedUrgent } from "./urgent.ts";
import { asChainWrites } from "./written-addresses.ts";

export interface GenerationRequest extends Month {
  trigger: GenerationTrigger;
  actor: string;
}

export interface GenerationSummary extends WriteResult {
  /** clients whose reportable operations another jurisdiction governs (or none of the project's) */
  elsewhere: { userId: string; governedBy: string | null }[];
}

/** The jurisdiction of a code, or a 400 naming the known ones. */
export function knownJurisdiction(code: string): Jurisdiction {
  const found = jurisdiction(code);
  if (!found) throw invalid(`Unknown jurisdiction ${code}`, [{ path: "/countryCode", message: "unknown" }]);
  return found;
}

/** Refuses a month that has not closed yet in the regulator's time zone (its report would be incomplete). */
export function assertClosed(countryCode: string, period: string, nowMs: number): void {
  const { timeZone } = knownJurisdiction(countryCode);
  const { end } = periodBounds(period, timeZone);
  if (end.getTime() > nowMs)
    throw invalid(`The month ${period} has not closed yet in ${timeZone}`, [
      { path: "/period", message: "must be a month that has ended" },
    ]);
}

export async function generateReports(
  ctx: ReportsContext,
  req: GenerationRequest,
): Promise<GenerationSummary> {
  const startedAt = new Date(ctx.now());
  const j = knownJurisdiction(req.countryCode);
  if (!(await projectExists(ctx.db, req.projectId))) throw notFound("Project");
  const compliance = await projectCompliance(ctx.db, req.projectId);
  if (!compliance.jurisdictions.includes(j.code))
    throw invalid(`The project does not enable ${j.code}`, [
      { path: "/countryCode", message: "must be one of the project's jurisdictions" },
    ]);
  const bounds = periodBounds(req.period, j.timeZone);
  const settings = compliance.settings[j.code];
  const book = { code: j.code, timeZone: j.timeZone, currency: j.currency };
  const window = {
    projectId: req.projectId,
    from: j.lookbackStart(bounds),
    to: bounds.end,
    status: "recorded" as const,
  };
  // The client's transfers seen on chain and its operations inside the exchange (src/exchange-operations).
  const recorded = [
    ...asChainWrites(
      ctx.registry,
      await readClientOperations(ctx.db, ctx.registry, { ...window, books: [book] }),
      j,
    ),
    ...(await exchangeClientOperations(ctx.db, { ...window, books: [book] }, nativeCoins(ctx.registry))),
  ];
  // Only verdicts are filed: a client with a rule not judgeable yet waits, and so does the month's nil report.
  // A rule on the client's lists left unjudged (the client was not screened then) is judged by its last screening.
  const screened = await clientMatches(ctx.db, req.projectId);
  const settled = settle(j, recorded, bounds, settings, (userId) => screened.get(userId) ?? NOT_SCREENED);
  const waiting = new Set(settled.unjudged.map((u) => u.op.userId));
  const monthFiles = `${j.name}'s monthly files of ${req.period}`;
  const build = await j.monthly({
    projectId: req.projectId,
    period: req.period,
    bounds,
    settings,
    operations: settled.operations.filter((op) => !waiting.has(op.userId)),
    urgentAvisos: (await owedUrgent(ctx, req.projectId, j, req.period)).length,
    unsettled: settled.pending.length + settled.unjudged.length,
    client: await clientSource(ctx, req.projectId, compliance, j.code),
  });
  const unsettled: Unbuilt[] = [
    ...[...waiting].map((userId) => {
      const first = settled.unjudged.find((u) => u.op.userId === userId) as (typeof settled.unjudged)[number];
      return {
        kind: "monthly" as const,
        userId,
        code: "no_value",
        reason: `${first.op.exchange ? `operation ${first.op.exchange.operationId}` : `transaction ${first.op.txHash}`} could not be judged (${first.reason}): import what is missing (vigia import prices, vigia import fx)`,
        blocks: monthFiles,
      };
    }),
    ...(settled.pending.length > 0
      ? [
          {
            kind: "monthly" as const,
            userId: null,
            stem: "",
            code: "pending",
            reason: `${settled.pending.length} transfers of the month are still waiting to be checked`,
            blocks: monthFiles,
          },
        ]
      : []),
  ];
  const result = await writeFiles(
    ctx,
    { ...req, countryCode: j.code, kinds: ["monthly", "zero"], complete: true },
    build.files,
    [
      ...build.refused,
      ...unsettled,
      ...build.problems.map((p) => ({
        kind: "monthly" as const,
        userId: null,
        stem: "",
        ...p,
        blocks: monthFiles,
      })),
    ],
    {
      trigger: req.trigger,
      actor: req.actor,
      startedAt,
      audit: async (trx, written) => {
        await writeAudit(trx, {
          projectId: req.projectId,
          actor: req.actor,
          action: "reports.generated",
          target: folderOf(req),
          details: {
            generationId: written.generationId,
            trigger: req.trigger,
            written: written.files.filter((f) => f.outcome === "written").map((f) => f.path),
            removed: written.removed,
            problems: written.problems.length,
            elsewhere: build.elsewhere.length,
          },
        });
        await failuresInTransaction(trx, req, written);
      },
    },
    build.elsewhere.map((e) => ({
      userId: e.userId,
      code: GOVERNED_ELSEWHERE,
      reason: e.governedBy
        ? `the client is governed by ${e.governedBy}: reported there, not here`
        : "no jurisdiction of the project governs the client (its country matches none, and no `client_jurisdiction.otherwise` is set): reported nowhere",
    })),
  );
  logFailures(ctx, { ...req, countryCode: j.code }, result);
  return { ...result, elsewhere: build.elsewhere };
}
