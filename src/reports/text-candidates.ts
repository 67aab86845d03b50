// Which Colombian, Salvadoran and Guatemalan files a month needs: one per user whose transfers of the month
// infringed one of the country's amount rules when the checker judged them (law-rules.ts). A month with none
// writes no file (no nil report was found for these countries: docs/reports/).
import type { ProfileResult } from "../monitoring/index.ts";
import type { Candidate, Refused } from "./candidate.ts";
import { coFile } from "./co/layout.ts";
import { byUser, type ReportOperation } from "./operations.ts";
import type { CountryCode } from "./tables.ts";
import { thresholdFile } from "./threshold-layout.ts";

export const TEXT_MEDIA_TYPE = "text/plain; charset=ISO-8859-1";

/** The law rules (law-rules.ts) that make a user's month reportable, by country. */
export const COUNTRY_RULES: Record<Exclude<CountryCode, "MX">, readonly string[]> = {
  CO: ["CO-TX-150", "CO-TX-450"],
  SV: ["SV-OTHER-25K", "SV-CASH-10K"],
  GT: ["GT-CASH-10K"],
};

export interface TextMonth {
  countryCode: Exclude<CountryCode, "MX">;
  timeZone: string;
  projectId: number;
  period: string;
  /** the project's checked transfers of the month */
  operations: ReportOperation[];
  profileOf: (userId: string) => Promise<ProfileResult>;
}

export async function textCandidates(
  month: TextMonth,
): Promise<{ candidates: Candidate[]; refused: Refused[] }> {
  const rules = COUNTRY_RULES[month.countryCode];
  const candidates: Candidate[] = [];
  const refused: Refused[] = [];
  for (const [userId, operations] of byUser(month.operations)) {
    const hit = operations.filter((op) => op.laws.some((l) => rules.includes(l)));
    if (hit.length === 0) continue;
    const profile = await month.profileOf(userId);
    if (!profile.ok) {
      refused.push({ kind: "monthly", userId, reason: profile.reason });
      continue;
    }
    const built =
      month.countryCode === "CO"
        ? coFile({
            projectId: month.projectId,
            period: month.period,
            userId,
            profile: profile.profile,
            operations,
          })
        : thresholdFile({
            countryCode: month.countryCode,
            timeZone: month.timeZone,
            projectId: month.projectId,
            period: month.period,
            userId,
            profile: profile.profile,
            operations: hit.map((op) => ({ op, rules: op.laws.filter((l) => rules.includes(l)) })),
          });
    candidates.push({
      kind: "monthly",
      userId,
      stem: userId,
      extension: "txt",
      mediaType: TEXT_MEDIA_TYPE,
      profile: profile.profile,
      render: () => (built.ok ? { ok: true, content: built.content, entries: [] } : built),
    });
  }
  return { candidates, refused };
}
