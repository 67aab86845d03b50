// Row types of the monitoring tables (migrations/0011_monitored_addresses.sql).
import type { ColumnType, Generated } from "kysely";

export interface MonitoredAddressesTable {
  /** bigserial: read as a string by the drivers */
  id: Generated<string>;
  project_id: number;
  chain_id: number;
  address: string;
  foreign_user_id: string;
  description: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  stopped_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface MonitoringTables {
  monitored_addresses: MonitoredAddressesTable;
}
