// The FATF's public lists of high-risk jurisdictions, as dated data: "High-Risk Jurisdictions subject to a Call for
// Action" and "Jurisdictions under Increased Monitoring", each version in force from the day the plenary published it
// until the next replaces it. Read in secondary sources (regulators and firms restating each plenary's statement; the
// FATF's own pages were not reachable here), so they say `verified: false`; docs/regulation.md, "High-risk
// jurisdictions", names them. A list is updated by a release, three times a year after each plenary (February, June,
// October): a day more than five months after the newest plenary is judged with that list and said to be stale.

export const FATF_CALL_FOR_ACTION = "fatf-call-for-action";
export const FATF_INCREASED_MONITORING = "fatf-increased-monitoring";
export type FatfList = typeof FATF_CALL_FOR_ACTION | typeof FATF_INCREASED_MONITORING;

export interface FatfListVersion {
  /** the day the plenary's statement was published (UTC), in force from then */
  from: string;
  countries: readonly string[];
  source: string;
}

const CALL_FOR_ACTION_2025 = ["KP", "IR", "MM"];

/** Oldest first. */
export const FATF_LISTS: Readonly<Record<FatfList, readonly FatfListVersion[]>> = {
  [FATF_CALL_FOR_ACTION]: [
    {
      from: "2025-02-21",
      countries: CALL_FOR_ACTION_2025,
      source:
        "FATF, High-Risk Jurisdictions subject to a Call for Action, 21-02-2025 (as restated by the FIAU Malta and AMLUAE); unchanged at the plenaries of June 2025, October 2025, February 2026 (DIA New Zealand, 17-02-2026) and June 2026 (Labuan FSA, 19-06-2026)",
    },
  ],
  [FATF_INCREASED_MONITORING]: [
    {
      from: "2025-02-21",
      // biome-ignore format: one country per entry would hide the list
      countries: ["DZ", "AO", "BG", "BF", "CM", "CI", "HR", "CD", "HT", "KE", "LA", "LB", "ML", "MC", "MZ", "NA", "NP", "NG", "ZA", "SS", "SY", "TZ", "VE", "VN", "YE"],
      source:
        "FATF, Jurisdictions under Increased Monitoring, 21-02-2025 (as restated by the FIAU Malta and AMLUAE)",
    },
    {
      from: "2025-06-13",
      // biome-ignore format: one country per entry would hide the list
      countries: ["DZ", "AO", "BO", "BG", "BF", "CM", "CI", "CD", "HT", "KE", "LA", "LB", "MC", "MZ", "NA", "NP", "NG", "ZA", "SS", "SY", "VE", "VN", "VG", "YE"],
      source:
        "FATF, Jurisdictions under Increased Monitoring, 13-06-2025 (+BO, +VG; −HR, −ML, −TZ; as FinCEN's release restates it)",
    },
    {
      from: "2025-10-24",
      // biome-ignore format: one country per entry would hide the list
      countries: ["DZ", "AO", "BO", "BG", "CM", "CI", "CD", "HT", "KE", "LA", "LB", "MC", "NA", "NP", "SS", "SY", "VE", "VN", "VG", "YE"],
      source:
        "FATF, Jurisdictions under Increased Monitoring, 24-10-2025 (−BF, −MZ, −NG, −ZA; FIAU Malta, 24-10-2025)",
    },
    {
      from: "2026-02-13",
      // biome-ignore format: one country per entry would hide the list
      countries: ["DZ", "AO", "BO", "BG", "CM", "CI", "CD", "HT", "KE", "KW", "LA", "LB", "MC", "NA", "NP", "PG", "SS", "SY", "VE", "VN", "VG", "YE"],
      source: "FATF, Jurisdictions under Increased Monitoring, 13-02-2026, plenary of Mexico City (+KW, +PG)",
    },
    {
      from: "2026-06-19",
      // biome-ignore format: one country per entry would hide the list
      countries: ["AO", "BO", "BA", "BG", "CM", "CI", "CD", "HT", "IQ", "KE", "KW", "LA", "LB", "MC", "NP", "PG", "SS", "SY", "VE", "VN", "VG", "YE"],
      source:
        "FATF, Jurisdictions under Increased Monitoring, 19-06-2026, plenary of Paris (+BA, +IQ; −DZ, −NA; Labuan FSA, 19-06-2026)",
    },
  ],
};

/** Days after the newest plenary beyond which a list is stale (the next plenary is due four months later). */
const STALE_AFTER_DAYS = 150;

/** The list's countries in force on `day` (YYYY-MM-DD), with its source; undefined before the first version. */
export function fatfListOn(
  list: string,
  day: string,
): { countries: readonly string[]; source: string; stale: boolean } | undefined {
  const versions = FATF_LISTS[list as FatfList];
  if (!versions) return undefined;
  const version = [...versions].reverse().find((v) => v.from <= day);
  if (!version) return undefined;
  const newest = versions.at(-1) as FatfListVersion;
  const age = (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${newest.from}T00:00:00Z`)) / 86_400_000;
  return { countries: version.countries, source: version.source, stale: age > STALE_AFTER_DAYS };
}
