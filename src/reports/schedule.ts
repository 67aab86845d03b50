// Monthly generation on schedule (docs/api.md, "Compliance reports"): a pg-boss cron job per country, every day at
// 01:00 in the regulator's time zone, generates the month that has just closed for every project enabling that
// country, well before the day-17 deadline. Daily rather than monthly so that a day without workers, or a month
// whose files had problems (an integrator that was down, a profile to fix), is tried again the next day, until day
// 17. Schedules live in the database: a missed day is run once when a worker is back.
import { sql } from "kysely";
import type { JobQueue } from "../platform/jobs/index.ts";
import { zonedParts } from "../platform/time-zone.ts";
import { REGULATOR_TIME_ZONES } from "../regulation/index.ts";
import type { ReportsContext } from "./context.ts";
import { generateReports } from "./generate.ts";
import { periodOf, previousPeriod } from "./period.ts";
import type { CountryCode } from "./tables.ts";

export const MONTHLY_REPORTS_QUEUE = "reports-monthly";
export const MONTHLY_CRON = "0 1 * * *";
/** The last day of the month on which a month with problems is generated again (the AVI deadline). */
const RETRY_UNTIL_DAY = 17;

const COUNTRIES = Object.keys(REGULATOR_TIME_ZONES) as CountryCode[];

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
  const timeZone = REGULATOR_TIME_ZONES[countryCode];
  const now = new Date(nowMs);
  const period = previousPeriod(periodOf(now, timeZone));
  const retrying = zonedParts(now, timeZone).day <= RETRY_UNTIL_DAY;
  const { rows } = await sql<{ id: number; problems: number | null }>`
    SELECT p.id,
      (SELECT jsonb_array_length(g.problems) FROM report_generations g
        WHERE g.project_id = p.id AND g.country_code = ${countryCode} AND g.period = ${period} AND g.trigger <> 'urgent'
        ORDER BY g.id DESC LIMIT 1) AS problems
    FROM projects p
    WHERE p.jurisdictions @> ${JSON.stringify([countryCode])}::jsonb
    ORDER BY p.id`.execute(ctx.db);
  const run: MonthlyRun = { period, generated: [], failed: [] };
  for (const project of rows) {
    const due = project.problems === null || (retrying && Number(project.problems) > 0);
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
  for (const countryCode of COUNTRIES)
    await jobs.schedule(
      MONTHLY_REPORTS_QUEUE,
      MONTHLY_CRON,
      { countryCode },
      {
        tz: REGULATOR_TIME_ZONES[countryCode],
        key: countryCode,
      },
    );
}
