// False alerts on ordinary users (the benchmark's background sample), by their distance to the nearest sanctioned,
// illicit or mixer address: the share scored medium or above (a compliance officer acts on those) and the share
// scored critical. Pure. Targets (what a user of the service should expect on ordinary customers): two hops away,
// at most 10 % medium or above and 2 % critical; three hops, at most 2 % medium or above; farther, none.
import { RISK_LEVELS, type RiskLevel } from "../../src/risk/index.ts";

export type DistanceBucket = "1" | "2" | "3" | ">3";
export const DISTANCE_BUCKETS: readonly DistanceBucket[] = ["1", "2", "3", ">3"];

export const FALSE_ALERT_TARGETS: Record<DistanceBucket, { mediumOrAbove?: number; critical?: number }> = {
  "1": {},
  "2": { mediumOrAbove: 0.1, critical: 0.02 },
  "3": { mediumOrAbove: 0.02 },
  ">3": { mediumOrAbove: 0, critical: 0 },
};

export interface FalseAlertRow {
  distance: DistanceBucket;
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
): FalseAlertRow[] {
  return DISTANCE_BUCKETS.map((distance) => {
    const inBucket = users.filter((u) => bucketOf(u.distance) === distance);
    const alerted = inBucket.filter((u) => ALERT.has(u.level));
    const critical = inBucket.filter((u) => u.level === "critical").length;
    const target = FALSE_ALERT_TARGETS[distance];
    const share = (n: number) => (inBucket.length ? n / inBucket.length : 0);
    const passed =
      (target.mediumOrAbove === undefined || share(alerted.length) <= target.mediumOrAbove) &&
      (target.critical === undefined || share(critical) <= target.critical);
    const levels = Object.fromEntries(RISK_LEVELS.map((l) => [l, 0])) as Record<RiskLevel, number>;
    for (const u of inBucket) levels[u.level]++;
    return {
      distance,
      users: inBucket.length,
      mediumOrAbove: alerted.length,
      critical,
      levels,
      alerted: alerted.map((u) => u.id),
      passed,
    };
  });
}
