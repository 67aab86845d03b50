// How old each list is and how its last scheduled refresh ended: what `vigia_list_age_seconds`, /readyz's details
// and GET /screening/lists show. A list's age runs from its last completed import (by hand or by the schedule: an
// import that found the same content completes too, and confirms the list current); a list never imported has no
// age, and is stale where the schedule should have loaded it.
import { type Kysely, sql } from "kysely";
import { ofKind, type PerKind } from "../../platform/config.ts";
import type { DB } from "../../schema.ts";
import { AGED_KINDS, type AgedKind, importRunKind, REFRESHED_KINDS, type RefreshedKind } from "./kinds.ts";
import type { RefreshOutcome } from "./refresher.ts";

export interface ListFreshness {
  kind: AgedKind;
  /** seconds since the last completed import; null: never imported */
  ageSeconds: number | null;
  /** older than its VIGIA_LIST_MAX_AGE_HOURS, or never imported though the schedule should load it */
  stale: boolean;
  /** the last scheduled refresh, if any ran */
  lastRefresh: { at: string; outcome: RefreshOutcome; error: string | null; failures: number } | null;
}

export async function listFreshness(
  db: Kysely<DB>,
  now: Date,
  settings: { maxAgeHours: PerKind; refreshHours: PerKind; refreshable: (kind: RefreshedKind) => boolean },
): Promise<ListFreshness[]> {
  const runKinds = AGED_KINDS.map(importRunKind);
  const { rows: imports } = await sql<{ kind: string; at: Date | string }>`
    SELECT kind, max(finished_at) AS at FROM import_runs
    WHERE status = 'completed' AND kind IN (${sql.join(runKinds)}) GROUP BY kind`.execute(db);
  const imported = new Map(imports.map((r) => [r.kind, new Date(r.at)]));
  const refreshes = new Map(
    (await db.selectFrom("list_refreshes").selectAll().execute()).map((r) => [r.kind, r]),
  );
  const found: ListFreshness[] = [];
  for (const kind of AGED_KINDS) {
    const at = imported.get(importRunKind(kind));
    const refresh = refreshes.get(kind);
    const scheduled =
      (REFRESHED_KINDS as readonly string[]).includes(kind) &&
      ofKind(settings.refreshHours, kind) > 0 &&
      settings.refreshable(kind as RefreshedKind);
    if (!at && !refresh && !scheduled) continue;
    const ageSeconds = at ? Math.max(0, Math.round((now.getTime() - at.getTime()) / 1000)) : null;
    const maxAge = ofKind(settings.maxAgeHours, kind) * 3600;
    found.push({
      kind,
      ageSeconds,
      stale: ageSeconds === null ? scheduled : maxAge > 0 && ageSeconds > maxAge,
      lastRefresh:
        refresh?.last_attempt_at && refresh.last_outcome
          ? {
              at: new Date(refresh.last_attempt_at).toISOString(),
              outcome: refresh.last_outcome as RefreshOutcome,
              error: refresh.last_error,
              failures: refresh.failures,
            }
          : null,
    });
  }
  return found;
}
