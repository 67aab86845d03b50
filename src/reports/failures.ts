// Nothing about a file that could not be written stays silent. In the generation's transaction (so that a crash
// cannot record a failure without its message), each failure is written to the audit log and, when it is new or its
// reason changed, queued for the integrator as a `type: error` message naming the user, the field and the file it
// blocks (failuresInTransaction). After the commit, each is logged at error level and counted by country and reason
// (vigia_report_failures_total, with an alert rule in deploy/prometheus/alerts.yml; logFailures). GET /reports
// lists the same failures (report_failures) beside the files.

import { enqueue } from "../integrator/index.ts";
import { writeAudit } from "../projects/index.ts";
import type { ReportsContext } from "./context.ts";
import { type Failure, folderOf, type Month, type WriteResult } from "./files.ts";

/** One audit row per failure, and a message for each new one, in the generation's transaction. */
export async function failuresInTransaction(
  trx: ReportsContext["db"],
  month: Month & { actor: string },
  written: WriteResult,
): Promise<void> {
  for (const f of written.failures) {
    await writeAudit(trx, {
      projectId: month.projectId,
      actor: month.actor,
      action: "reports.failed",
      target: `${folderOf(month)}/${f.stem || "*"}`,
      details: {
        generationId: written.generationId,
        kind: f.kind,
        userId: f.userId,
        code: f.code,
        reason: f.reason,
        ...(f.field ? { field: f.field } : {}),
      },
    });
    // Due now on the outbox's clock (the deliverer's), whatever the reports' own clock says.
    if (f.isNew)
      await enqueue(
        trx,
        {
          projectId: month.projectId,
          type: "error",
          body: { type: "error", data: failureMessage(month, f) },
        },
        new Date(),
      );
  }
}

/** What the integrator reads of a failure. */
export function failureMessage(month: Month, f: Failure): string {
  const who = f.userId ? `user ${f.userId}` : "the project";
  const field = f.field ? ` (field \`${f.field}\`)` : "";
  return `${month.countryCode} ${month.period}: ${f.blocks} of ${who} could not be generated${field}: ${f.reason}. Once fixed: POST /v1/reports/generate generates the month again (the daily run does until the filing deadline; a 24-hour aviso is tried again every hour).`;
}

/** Logs and counts the failures of a generation that has committed. */
export function logFailures(ctx: ReportsContext, month: Month, written: WriteResult): void {
  for (const f of written.failures) {
    ctx.countFailure?.(month.countryCode, f.code);
    ctx.log?.error(
      {
        projectId: month.projectId,
        countryCode: month.countryCode,
        period: month.period,
        userId: f.userId,
        code: f.code,
        field: f.field,
        generationId: written.generationId,
      },
      `report not generated: ${f.blocks}: ${f.reason}`,
    );
  }
}
