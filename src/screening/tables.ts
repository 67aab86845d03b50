// Row types of the screening's tables (migrations/0031_person_lists.sql, 0041_match_reviews.sql).
import type { ColumnType, Generated } from "kysely";
import type { ListEntry } from "./entry.ts";

type Json<T> = ColumnType<T, string, string>;

export interface PersonListsTable {
  id: Generated<string>;
  kind: string;
  version: string;
  list_date: ColumnType<string | null, string | null | undefined, string | null>;
  source: string;
  digest: string;
  entries: number;
  imported_at: Date;
  current: ColumnType<boolean, boolean | undefined, boolean>;
  /** the project whose own list it is (the UIF's LPB); null for a service-wide list */
  project_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface PersonListEntriesTable {
  list_id: ColumnType<string, string | number, string | number>;
  entry_id: string;
  entry: Json<ListEntry>;
}

export interface ScreeningSettingsTable {
  project_id: number;
  thresholds: Json<Record<string, { review?: number; match?: number }>>;
}

export interface ClientScreeningsTable {
  project_id: number;
  user_id: string;
  subjects: Json<unknown[]>;
  profile_digest: string;
  lists_key: string;
  verdict: string;
  candidates: Json<unknown[]>;
  chain_id: number;
  address: string;
  address_id: ColumnType<string | null, string | number | null, string | number | null>;
  screened_at: Date;
  /** until when a worker holds the row to screen it (queue.ts) */
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The officer's review of a client and a list entry (review/): confirmed or discarded, and what was reviewed. */
export interface MatchReviewsTable {
  project_id: number;
  user_id: string;
  list: string;
  entry_id: string;
  decision: string;
  reason: string;
  actor: string;
  decided_at: Date;
  alert_id: ColumnType<string, string | number, string | number>;
  subject: string;
  role: string;
  entry_fingerprint: string;
  profile_fingerprint: string;
  list_version: string;
  superseded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  superseded_by_alert: ColumnType<string | null, string | number | null | undefined, string | number | null>;
}

export interface ScreeningTables {
  match_reviews: MatchReviewsTable;
  person_lists: PersonListsTable;
  person_list_entries: PersonListEntriesTable;
  screening_settings: ScreeningSettingsTable;
  client_screenings: ClientScreeningsTable;
}
