// Row types of the jurisdictions' own data kept in the store (migrations/0038_uma_values.sql): law figures published
// after a release, such as Mexico's UMA of a new year.
import type { ColumnType } from "kysely";

export interface UmaValuesTable {
  year: number;
  daily: ColumnType<string, string | number, string | number>;
  monthly: ColumnType<string, string | number, string | number>;
  annual: ColumnType<string, string | number, string | number>;
  dof_date: ColumnType<string, string, string>;
  source: string;
  imported_at: ColumnType<Date, Date, Date>;
}

export interface JurisdictionTables {
  uma_values: UmaValuesTable;
}
