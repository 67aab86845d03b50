// Monthly generation on schedule (docs/api.md, "Compliance reports"): a pg-boss cron job per jurisdiction, every day
// at 01:00 in the regulator's time zone, generates the month that has just closed for every project enabling it,
// well before its filing deadline. Daily rather than monthly so that a day without workers, or a month whose files
// had problems (an integrator that was down, a profile to fix), is tried again the next day, until the month's
// last filing deadline (src/jurisdictions' calendar; day 17 where it lists none). A month whose transfers were
// checked after its last generation (a block indexed late) is generated again whatever the day: an aviso found late
// is still owed. Schedules live in the database: a missed day is run once when a worker is back.
import { sql } from "kysely";
import { deadlineAfter, JURISDICTIONS } from "../jurisdictions/index.ts";
import { lastChecked } from "../monitoring/index.ts";
import type { JobQueue } from "../platform/jobs/index.ts";
import type { ReportsContext } from "./context.ts";
import { generateReports, knownJurisdiction } from "./generate.ts";
import { periodBounds, periodOf, previousPeriod } from "./period.ts";
import { GOVERNED_ELSEWHERE } from "./profiles.ts";
import type { CountryCode } from "./tables.ts";

export const MONTHLY_REPORTS_QUEUE = "reports-monthly";
export const MONTHLY_CRON = "0 1 * * *";
/** The day of the next month until which a month with problems is generated again, where no deadline is listed. */
const RETRY_UNTIL_DAY = 17;

export interface MonthlyRun {
  period: string;
  generated: { projectId: number; generationId: number; problems: number }[];
  failed: { projectId: number; error: string }[];
}

/**
 * Generates the month that closed before `nowMs` for every project enabling the country, where still needed.
 * `signal` (the job taken away from this worker) stops it between projects; the next run does the rest.
 */
export async function runMonthly(
  ctx: ReportsContext,
  countryCode: CountryCode,
  nowMs = ctx.now(),
  signal?: AbortSignal,
): Promise<MonthlyRun> {
  const j = knownJurisdiction(countryCode);
  const now = new Date(nowMs);
  const period = previousPeriod(periodOf(now, j.timeZone));
  const deadlines = j.calendar(period).map((f) => f.deadline.getTime());
  const retryUntil =
    deadlines.length > 0
      ? Math.max(...deadlines)
      : deadlineAfter(period, j.timeZone, { months: 1, day: RETRY_UNTIL_DAY }).getTime();
  const retrying = nowMs <= retryUntil;
  const { start, end } = periodBounds(period, j.timeZone);
  const { rows } = await sql<{ id: number; problems: number | null; finished: Date | string | null }>`
    SELECT p.id,
      (SELECT max(g.finished_at) FROM report_generations g
        WHERE g.project_id = p.id AND g.country_code = ${countryCode} AND g.period = ${period} AND g.trigger <> 'urgent'
      ) AS finished,
      -- A client governed elsewhere is no problem to retry: only the files that could not be written are.
      (SELECT (SELECT count(*) FROM jsonb_array_elements(g.problems) e
          WHERE e->>'code' IS DISTINCT FROM ${GOVERNED_ELSEWHERE})
        FROM report_generations g
        WHERE g.project_id = p.id AND g.country_code = ${countryCode} AND g.period = ${period} AND g.trigger <> 'urgent'
        ORDER BY g.id DESC LIMIT 1) AS problems
    FROM projects p
    WHERE p.jurisdictions @> ${JSON.stringify([countryCode])}::jsonb
    ORDER BY p.id`.execute(ctx.db);
  const run: MonthlyRun = { period, generated: [], failed: [] };
  for (const project of rows) {
    const checked = project.finished === null ? null : await lastChecked(ctx.db, project.id, start, end);
    const late = checked !== null && project.finished !== null && checked > new Date(project.finished);
    const due = project.problems === null || (retrying && Number(project.problems) > 0) || late;
    if (!due) continue;
    signal?.throwIfAborted();
    try {
      const summary = await generateReports(ctx, {
        projectId: project.id,
        countryCode,
        period,
        trigger: "schedule",
        actor: "system",
      });
      run.generated.push({
        projectId: project.id,
        generationId: summary.generationId,
        problems: summary.problems.length,
      });
    } catch (error) {
      // One project's failure (its row vanished, the database hiccupped) does not stop the others'.
      run.failed.push({ projectId: project.id, error: (error as Error).message });
    }
  }
  if (run.failed.length > 0 && run.generated.length === 0)
    throw new Error(
      `report generation failed for ${run.failed.map((f) => `project ${f.projectId}: ${f.error}`).join("; ")}`,
    );
  return run;
}

/** Defines the monthly queue and its handler, and (in processes with workers) the cron schedule per country. */
export async function registerReportJobs(ctx: ReportsContext, jobs: JobQueue): Promise<void> {
  await jobs.define(MONTHLY_REPORTS_QUEUE, { retryLimit: 3, retryDelaySeconds: 300, expireInSeconds: 3600 });
  await jobs.work<{ countryCode: CountryCode }, MonthlyRun>(MONTHLY_REPORTS_QUEUE, (job) =>
    runMonthly(ctx, job.data.countryCode, ctx.now(), job.signal),
  );
  if (!jobs.runsWorkers) return;
  for (const j of JURISDICTIONS)
    await jobs.schedule(
      MONTHLY_REPORTS_QUEUE,
      MONTHLY_CRON,
      { countryCode: j.code },
      { tz: j.timeZone, key: j.code },
    );
}
