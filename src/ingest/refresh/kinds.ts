// The lists the workers keep fresh on a schedule, where each is fetched from, and the import run that records each
// (the age of a list is the time since its last completed import, by hand or by the schedule). `sanctions` is OFAC's
// SDN list read for its digital currency addresses (`vigia sanctions update`); the others are lists of persons
// (`vigia lists refresh`). The UIF's LPB is loaded by hand (the UIF gives it to each provider): it has an age and a
// limit, never a schedule.
import type { ListKind } from "../../screening/index.ts";
import { OFFICIAL_URLS } from "../person-lists/download.ts";
import { OFAC_SDN_URL } from "../sanctions/update.ts";

export const REFRESHED_KINDS = ["ofac-sdn", "un", "sat-69b", "ftm", "sanctions"] as const;
export type RefreshedKind = (typeof REFRESHED_KINDS)[number];

/** Every list with an age: the refreshed ones and the LPB. */
export const AGED_KINDS = [...REFRESHED_KINDS, "mx-lpb"] as const;
export type AgedKind = (typeof AGED_KINDS)[number];

/** The `import_runs.kind` of a list's imports. */
export function importRunKind(kind: AgedKind): string {
  return kind === "sanctions" ? "sanctions" : `person-list:${kind}`;
}

/** Where a list is fetched from: the operator's URL (VIGIA_LIST_URLS), else the official one; undefined if none. */
export function refreshUrl(kind: RefreshedKind, urls: Record<string, string>): string | undefined {
  return urls[kind] ?? (kind === "sanctions" ? OFAC_SDN_URL : OFFICIAL_URLS[kind as ListKind]);
}
