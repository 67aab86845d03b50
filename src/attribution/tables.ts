// Row types of the attribution tables (migrations/0010_deposit_addresses.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface DepositAddressesTable {
  chain_id: number;
  address: string;
  attributed: boolean;
  reason: string | null;
  exchange: string | null;
  hot_wallets: string[] | null;
  sweeps: number | null;
  received: number | null;
  senders: number | null;
  swept_share: number | null;
  median_sweep_seconds: number | null;
  confidence: number | null;
  first_sweep_at: Timestamp | null;
  last_sweep_at: Timestamp | null;
  updated_at: Generated<Date>;
}

export interface AttributionTables {
  deposit_addresses: DepositAddressesTable;
}
