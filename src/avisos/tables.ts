// Row types of the avisos due from knowledge (migrations/0032_known_avisos.sql, 0037_aviso_prospect.sql).
import type { ColumnType, Generated } from "kysely";

type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** The list entry a listing aviso is about. */
export interface AvisoListing {
  list: string;
  listVersion: string;
  entryId: string;
  matchedName: string;
  score: number;
}

export interface AvisosTable {
  id: Generated<string>;
  project_id: number;
  country_code: string;
  user_id: string;
  basis: string;
  origin: string;
  cause_key: string;
  reference: string;
  period: string;
  known_at: Timestamp;
  deadline: Timestamp;
  narrative: string;
  account: string | null;
  listing: Json<AvisoListing | null>;
  alert_ids: Json<string[]>;
  tx_hashes: Json<string[]>;
  /** a prospect's data as given (an integrator's profile form), for a person who only tried to operate */
  prospect: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_by: string;
  created_at: Timestamp;
  settled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  tried_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  owed: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface AvisoTables {
  avisos: AvisosTable;
}
