// False alerts on ordinary users (the benchmark's background sample), by their distance to the nearest sanctioned,
// illicit or mixer address: the share scored medium or above (a compliance officer acts on those) and the share
// scored critical. Pure. Targets (what a user of the service should expect on ordinary customers): two hops away,
// at most 10 % medium or above and 2 % critical; three hops, at most 2 % medium or above; farther, none.
// And a row for dusted users (ordinary users sent a few dollars, unsolicited, by sanctioned and mixer addresses,
// eval/world/dusting.ts): none medium or above, since dust is nobody's verdict (docs/risk-model.md).
import { RISK_LEVELS, type RiskLevel } from "../../src/risk/index.ts";

export type DistanceBucket = "1" | "2" | "3" | ">3";
export const DISTANCE_BUCKETS: readonly DistanceBucket[] = ["1", "2", "3", ">3"];
/** A row of the table: a distance bucket of the background sample, or the dusted users. */
export type AlertRowName = DistanceBucket | "dusted";

export const FALSE_ALERT_TARGETS: Record<AlertRowName, { mediumOrAbove?: number; critical?: number }> = {
  "1": {},
  "2": { mediumOrAbove: 0.1, critical: 0.02 },
  "3": { mediumOrAbove: 0.02 },
  ">3": { mediumOrAbove: 0, critical: 0 },
  dusted: { mediumOrAbove: 0 },
};

export interface FalseAlertRow {
  distance: AlertRowName;
  users: number;
  mediumOrAbove: number;
  critical: number;
  /** users at each level */
  levels: Record<RiskLevel, number>;
  /** the users scored medium or above, for a look at why */
  alerted: string[];
  passed: boolean;
}

export const bucketOf = (distance: number | undefined): DistanceBucket =>
  distance === undefined || distance > 3 ? ">3" : (String(Math.max(1, distance)) as DistanceBucket);

const ALERT: ReadonlySet<RiskLevel> = new Set(["medium", "high", "critical"]);

export function falseAlerts(
  users: readonly { id: string; distance: number | undefined; level: RiskLevel }[],
  dusted?: readonly { id: string; level: RiskLevel }[],
): FalseAlertRow[] {
  const rows = DISTANCE_BUCKETS.map((distance) =>
    row(
      distance,
      users.filter((u) => bucketOf(u.distance) === distance),
    ),
  );
  return dusted === undefined ? rows : [...rows, row("dusted", dusted)];
}

function row(name: AlertRowName, inRow: readonly { id: string; level: RiskLevel }[]): FalseAlertRow {
  const alerted = inRow.filter((u) => ALERT.has(u.level));
  const critical = inRow.filter((u) => u.level === "critical").length;
  const target = FALSE_ALERT_TARGETS[name];
  const share = (n: number) => (inRow.length ? n / inRow.length : 0);
  const passed =
    (target.mediumOrAbove === undefined || share(alerted.length) <= target.mediumOrAbove) &&
    (target.critical === undefined || share(critical) <= target.critical);
  const levels = Object.fromEntries(RISK_LEVELS.map((l) => [l, 0])) as Record<RiskLevel, number>;
  for (const u of inRow) levels[u.level]++;
  return {
    distance: name,
    users: inRow.length,
    mediumOrAbove: alerted.length,
    critical,
    levels,
    alerted: alerted.map((u) => u.id),
    passed,
  };
}
