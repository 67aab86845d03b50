// Risk levels and their score bands (docs/risk-model.md): minimal 0-19, low 20-39, medium 40-59, high 60-79,
// critical 80-100.

export const RISK_LEVELS = ["minimal", "low", "medium", "high", "critical"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** Lowest score of each level. */
export const LEVEL_FLOORS: Readonly<Record<RiskLevel, number>> = {
  minimal: 0,
  low: 20,
  medium: 40,
  high: 60,
  critical: 80,
};

/** The level of a score (0..100, rounded to an integer first). */
export function levelFor(score: number): RiskLevel {
  const s = Math.round(Math.min(100, Math.max(0, score)));
  if (s >= LEVEL_FLOORS.critical) return "critical";
  if (s >= LEVEL_FLOORS.high) return "high";
  if (s >= LEVEL_FLOORS.medium) return "medium";
  if (s >= LEVEL_FLOORS.low) return "low";
  return "minimal";
}

/** minimal < low < medium < high < critical */
export function compareLevels(a: RiskLevel, b: RiskLevel): number {
  return RISK_LEVELS.indexOf(a) - RISK_LEVELS.indexOf(b);
}
