// Row types of the monitoring tables (migrations/0011_monitored_addresses.sql, 0013_monitored_transfers.sql,
// 0014_reports.sql, 0019_jurisdictions.sql, 0020_integrations.sql, 0023_every_chain_addresses.sql).
import type { ColumnType, Generated } from "kysely";

export interface MonitoredAddressesTable {
  /** bigserial: read as a string by the drivers */
  id: Generated<string>;
  project_id: number;
  /** null: every chain the indexer follows (0023) */
  chain_id: number | null;
  address: string;
  foreign_user_id: string;
  description: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  stopped_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** the chain's indexed head at registration (migrations/0013_monitored_transfers.sql) */
  watch_from_block: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  /** of an every-chain record: each followed chain's indexed head at registration, by chain id (0023) */
  watch_from_blocks: ColumnType<
    Record<string, string | number | null> | null,
    unknown | null | undefined,
    unknown | null
  >;
  /** the jurisdiction the address was registered under; null: the profile decides (0019) */
  jurisdiction: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface MonitoredTransfersTable {
  address_id: string;
  project_id: number;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_number: ColumnType<string, string | bigint, string | bigint>;
  status: ColumnType<
    "pending" | "evaluated" | "unwound",
    "pending" | "evaluated" | "unwound" | undefined,
    "pending" | "evaluated" | "unwound"
  >;
  notification_id: string | null;
  evaluated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** the law rules the transfer infringed, its token's USD price and the MXN rate it was judged at (0014) */
  laws: string[] | null;
  price_usd: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  mxn_per_usd: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** each rule book's valuation of the transfer when it was checked (0019): src/regulation's Valuation by code */
  valuations: ColumnType<unknown | null, string | null | undefined, string | null>;
  /** the rules that could not be judged when it was checked (0019) */
  unjudged: string[] | null;
  /** the worker checking it, until when (0020): src/monitoring/claim.ts */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface MonitoringTables {
  monitored_addresses: MonitoredAddressesTable;
  monitored_transfers: MonitoredTransfersTable;
}
