// The second half of re-screening: scoring again the monitored addresses a label change reached
// (rescreen_pending), a few per run and one project at a time in turn (a project with thousands queued does not
// hold the others back). Each is scanned at the default depth as any scan (stored; the wallet report and the stored
// results see it); when its level is higher than its last verdict's, an alert of cause `rescreen` names the new
// label, when the new level reaches the project's alert level. A row is deleted once scored: a crash leaves it queued, claimed for `leaseMs`, then scored by the next run.
import { type Kysely, sql } from "kysely";
import { type AlertLevel, alertLevelOf, analysisEvidenceOf, raiseRescreenAlert } from "../alerts/index.ts";
import { type AnalysisContext, type CompletedVerdict, latestVerdict, scanRisk } from "../analysis/index.ts";
import { labelChangesById } from "../ledger/index.ts";
import { findMonitored } from "../monitoring/index.ts";
import { compareLevels, type RiskLevel } from "../risk/index.ts";
import type { DB } from "../schema.ts";

export interface RescoreOptions {
  /** the service's alert level, for projects that set none (VIGIA_ALERT_LEVEL) */
  alertLevel: AlertLevel;
  /** addresses claimed per run */
  batch: number;
  /** how long a claim keeps others off, in ms */
  leaseMs: number;
  /** the depth of the re-scoring scans */
  depth: number;
}

export interface RescoreOutcome {
  scored: number;
  rises: number;
  failed: number;
}

interface Claimed {
  project_id: number;
  chain_id: number;
  address: string;
  change_ids: string[];
  hops: number;
}

async function claim(db: Kysely<DB>, batch: number, leaseMs: number, now: Date): Promise<Claimed[]> {
  const { rows } = await sql<Claimed>`
    WITH waiting AS (
      SELECT project_id, chain_id, address, queued_at,
        row_number() OVER (PARTITION BY project_id ORDER BY queued_at, address) AS turn
      FROM rescreen_pending
      WHERE claimed_until IS NULL OR claimed_until < ${now}
    ),
    -- each project's oldest first, then each one's second, and so on: one project's thousands wait their turn
    due AS (SELECT project_id, chain_id, address FROM waiting ORDER BY turn, queued_at, project_id LIMIT ${batch})
    UPDATE rescreen_pending p SET claimed_until = ${new Date(now.getTime() + leaseMs)}
    FROM due WHERE p.project_id = due.project_id AND p.chain_id = due.chain_id AND p.address = due.address
      -- checked again on the row itself: of two workers that read the same waiting rows, one claims each
      AND (p.claimed_until IS NULL OR p.claimed_until < ${now})
    RETURNING p.project_id, p.chain_id, p.address, p.change_ids::text[] AS change_ids, p.hops`.execute(db);
  return rows;
}

export async function rescoreQueued(
  ctx: AnalysisContext,
  options: RescoreOptions,
  now: () => Date,
): Promise<RescoreOutcome> {
  const db = ctx.db;
  const claimed = await claim(db, options.batch, options.leaseMs, now());
  const outcome: RescoreOutcome = { scored: 0, rises: 0, failed: 0 };
  for (const row of claimed) {
    const done = () =>
      db
        .deleteFrom("rescreen_pending")
        .where("project_id", "=", row.project_id)
        .where("chain_id", "=", row.chain_id)
        .where("address", "=", row.address)
        .execute();
    const client = await findMonitored(db, row.project_id, row.chain_id, row.address);
    if (!client) {
      await done(); // no longer monitored
      continue;
    }
    const before = await latestVerdict(db, {
      projectId: row.project_id,
      address: row.address,
      chainId: row.chain_id,
    });
    // The scan's own listener (analysis alerts) is replaced: what a re-screening finds is told as `rescreen`.
    let verdict: CompletedVerdict | undefined;
    const scanned = await scanRisk(
      {
        ...ctx,
        onVerdict: async (v) => {
          verdict = v;
        },
      },
      {
        projectId: row.project_id,
        addresses: [{ address: row.address, chainId: String(row.chain_id) }],
        maxDepth: options.depth,
        skipExisting: false,
      },
    );
    if (!verdict) {
      // Failed, or withheld for want of current data: it stays queued for the next claim after the lease.
      outcome.failed += 1;
      ctx.log?.warn(
        { projectId: row.project_id, chainId: row.chain_id, error: scanned.results[0]?.riskReason },
        "re-screening: the scan gave no verdict; tried again later",
      );
      continue;
    }
    outcome.scored += 1;
    const previous = (before?.verdict.level ?? null) as RiskLevel | null;
    const level = verdict.result.riskLevel;
    // A rise to the project's alert level or above: a rise from minimal to low is not worth an officer's time.
    const threshold = await alertLevelOf(db, row.project_id, options.alertLevel);
    if (compareLevels(level, previous ?? "minimal") > 0 && compareLevels(level, threshold) >= 0) {
      const [change] = await labelChangesById(db, row.change_ids.slice(0, 1));
      if (change) {
        const at = now();
        await raiseRescreenAlert(db, {
          projectId: row.project_id,
          chainId: row.chain_id,
          address: row.address,
          addressId: client.id,
          userId: client.foreignUserId,
          label: {
            address: change.address,
            label: change.label,
            category: change.category,
            source: change.source,
            changedAt: change.changedAt,
            hops: row.hops,
          },
          before: {
            level: previous,
            score: before?.verdict.score ?? null,
            analysisId: before?.verdict.analysisId ?? null,
          },
          analysis: analysisEvidenceOf(verdict, at),
          now: at,
        });
        outcome.rises += 1;
      }
    }
    await done();
  }
  return outcome;
}
