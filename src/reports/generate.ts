// Generating a country's reports of a project for a month (docs/api.md, "Compliance reports"): on demand
// (POST /reports/generate) or on schedule after the month closes (schedule.ts). Reads what monitoring saw, reads
// each reportable user's profile from the integrator, builds the files (mx/, co/, the threshold layout), checks
// them, and writes them with their versions (files.ts). Every generation is recorded with what it wrote and why any
// file was not written, and audited.
import { getProject, type MxReportingEntity, writeAudit } from "../keys/index.ts";
import { invalid } from "../platform/errors.ts";
import { REGULATOR_TIME_ZONES } from "../regulation/index.ts";
import type { Candidate, Refused } from "./candidate.ts";
import type { ReportsContext } from "./context.ts";
import { folderOf, type Scope, type WriteResult, writeMonth } from "./files.ts";
import { ACCUMULATION_WINDOW_MS, mxCandidates } from "./mx/monthly.ts";
import { readOperations } from "./operations.ts";
import { periodBounds } from "./period.ts";
import { profileSource } from "./profiles.ts";
import type { CountryCode, GenerationTrigger } from "./tables.ts";
import { textCandidates } from "./text-candidates.ts";

export interface GenerationRequest extends Scope {
  trigger: GenerationTrigger;
  actor: string;
}

export interface GenerationSummary extends WriteResult {
  status: "completed";
}

/** Refuses a month that has not closed yet in the regulator's time zone (its report would be incomplete). */
export function assertClosed(countryCode: CountryCode, period: string, nowMs: number): void {
  const { end } = periodBounds(period, REGULATOR_TIME_ZONES[countryCode]);
  if (end.getTime() > nowMs)
    throw invalid(`The month ${period} has not closed yet in ${REGULATOR_TIME_ZONES[countryCode]}`, [
      { path: "/period", message: "must be a month that has ended" },
    ]);
}

export async function generateReports(
  ctx: ReportsContext,
  req: GenerationRequest,
): Promise<GenerationSummary> {
  const startedAt = new Date(ctx.now());
  const project = await getProject(ctx.keys, req.projectId);
  if (!project.jurisdictions.includes(req.countryCode))
    throw invalid(`The project does not enable ${req.countryCode}`, [
      { path: "/countryCode", message: "must be one of the project's jurisdictions" },
    ]);
  const timeZone = REGULATOR_TIME_ZONES[req.countryCode];
  const bounds = periodBounds(req.period, timeZone);
  const profileOf = await profileSource(ctx, req.projectId, req.countryCode);
  let found: { candidates: Candidate[]; refused: Refused[] };
  const problems: { reason: string }[] = [];
  if (req.countryCode === "MX") {
    const entity: MxReportingEntity | null = project.mx_reporting_entity;
    if (!entity) {
      found = { candidates: [], refused: [] };
      problems.push({
        reason:
          "the project has no Mexican reporting entity (`mx_reporting_entity` in its settings): no AVI file can be written",
      });
    } else {
      const operations = await readOperations(ctx.db, ctx.registry, {
        projectId: req.projectId,
        from: new Date(bounds.start.getTime() - ACCUMULATION_WINDOW_MS),
        to: bounds.end,
      });
      const urgent = await ctx.db
        .selectFrom("reports")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("project_id", "=", req.projectId)
        .where("country_code", "=", "MX")
        .where("period", "=", req.period)
        .where("kind", "=", "urgent")
        .executeTakeFirstOrThrow();
      found = await mxCandidates({
        period: req.period,
        bounds,
        entity,
        operations,
        urgentCount: Number(urgent.n),
        profileOf,
      });
    }
  } else {
    const operations = await readOperations(ctx.db, ctx.registry, {
      projectId: req.projectId,
      from: bounds.start,
      to: bounds.end,
    });
    found = await textCandidates({
      countryCode: req.countryCode,
      timeZone,
      projectId: req.projectId,
      period: req.period,
      operations,
      profileOf,
    });
  }
  const result = await writeMonth(
    ctx,
    req,
    found.candidates,
    found.refused,
    {
      trigger: req.trigger,
      actor: req.actor,
      startedAt,
      audit: (trx, written) =>
        writeAudit(trx, {
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
          },
        }),
    },
    problems,
  );
  return { status: "completed", ...result };
}
