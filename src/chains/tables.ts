// Row types of the chain data store (migrations/0001 chain_snapshots, migrations/0002_chain_data.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** numeric and int8 columns come back as decimal strings on both backends. */
type Decimal = ColumnType<string, string | bigint | number, string | bigint | number>;
/** `date` columns: written as YYYY-MM-DD. */
type Day = ColumnType<Date, string, string>;

export interface ChainSnapshotsTable {
  chain_id: number;
  data: ColumnType<Record<string, unknown>, string, string>;
  fetched_at: Timestamp;
}

export interface BlocksTable {
  chain_id: number;
  number: Decimal;
  hash: string;
  parent_hash: string | null;
  timestamp: Timestamp;
}

export interface TransfersTable {
  chain_id: number;
  tx_hash: string;
  /** -1 for the native value of a transaction */
  log_index: number;
  block_number: Decimal;
  block_time: Timestamp;
  from_address: string;
  to_address: string;
  /** 'native' or the token contract address */
  token: string;
  value: Decimal;
}

export interface TokensTable {
  chain_id: number;
  address: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

export interface AddressFactsTable {
  chain_id: number;
  address: string;
  first_seen_block: Decimal | null;
  first_seen_at: Timestamp | null;
  is_contract: ColumnType<boolean, boolean | undefined, boolean>;
  /** transfers the address sent on this chain (kept by every writer of transfers; migrations/0017) */
  transfers_out: ColumnType<string, string | number | undefined, string | number>;
  /** transfers the address received on this chain */
  transfers_in: ColumnType<string, string | number | undefined, string | number>;
}

export interface LabelsTable {
  id: Generated<string>;
  address: string;
  /** 0: every chain */
  chain_id: ColumnType<number, number | undefined, number>;
  label: string;
  category: string;
  original_category: string | null;
  source: string;
  confidence: ColumnType<number, number | undefined, number>;
  created_at: Generated<Date>;
}

export interface PricesTable {
  chain_id: number;
  token: string;
  day: Day;
  price_usd: Decimal;
}

export interface FxRatesTable {
  day: Day;
  currency: string;
  per_usd: Decimal;
}

export interface IndexerCheckpointsTable {
  chain_id: number;
  block_number: Decimal;
  block_hash: string;
  updated_at: Timestamp;
}

export interface ExplorerFetchesTable {
  chain_id: number;
  address: string;
  fetched_at: Timestamp;
  transfer_count: number;
}

export interface ImportRunsTable {
  id: Generated<string>;
  kind: string;
  source: string;
  status: "running" | "completed" | "failed";
  rows_read: ColumnType<string, number | undefined, number | string>;
  rows_written: ColumnType<string, number | undefined, number | string>;
  error: string | null;
  started_at: Generated<Date>;
  finished_at: Timestamp | null;
}

export interface ChainsTables {
  chain_snapshots: ChainSnapshotsTable;
  blocks: BlocksTable;
  transfers: TransfersTable;
  tokens: TokensTable;
  address_facts: AddressFactsTable;
  labels: LabelsTable;
  prices: PricesTable;
  fx_rates: FxRatesTable;
  indexer_checkpoints: IndexerCheckpointsTable;
  explorer_fetches: ExplorerFetchesTable;
  import_runs: ImportRunsTable;
}
