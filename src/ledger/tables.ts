// Row types of the ledger: what the service knows of the chains' money (migrations/0002_chain_data.sql and
// later): transfers, tokens, address facts, labels, prices and exchange rates. The ledger room reads them; the
// indexer, the explorer cache, the imports and attribution write them in their own transactions
// (docs/decisions/0024-ledger-and-coverage.md).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** numeric and int8 columns come back as decimal strings on both backends. */
type Decimal = ColumnType<string, string | bigint | number, string | bigint | number>;
/** `date` columns: written as YYYY-MM-DD. */
type Day = ColumnType<Date, string, string>;

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
  /** the USD value the law rules' convention fixes for a stablecoin, when no day's price is held (0030) */
  pegged_usd: string | null;
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
  /** the address has bridge legs on this chain (migrations/0047, written with the legs) */
  bridged: ColumnType<boolean, boolean | undefined, boolean>;
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

/** A label that appeared or changed (migrations/0029_rescreening.sql), logged by its writer for the re-screening. */
export interface LabelChangesTable {
  id: Generated<string>;
  /** 0: every chain */
  chain_id: number;
  address: string;
  label: string;
  category: string;
  source: string;
  changed_at: Generated<Date>;
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

export interface BlocksTable {
  chain_id: number;
  number: Decimal;
  hash: string;
  parent_hash: string | null;
  timestamp: Timestamp;
}

export interface IndexerCheckpointsTable {
  chain_id: number;
  block_number: Decimal;
  block_hash: string;
  updated_at: Timestamp;
  /** the node's head as the indexer last read it (migrations/0021_indexer_head.sql) */
  head_number: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  head_seen_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ExplorerFetchesTable {
  chain_id: number;
  address: string;
  fetched_at: Timestamp;
  transfer_count: number;
}

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

/** A UTXO chain's address cluster (migrations/0048_utxo_clusters.sql), written by src/clusters. */
export interface UtxoClustersTable {
  chain_id: number;
  key: ColumnType<string, string | bigint, string | bigint>;
  id: string;
  size: number;
  addresses: string[];
  joined_by: string[];
  coinjoins_excluded: ColumnType<ExcludedCoinJoinRow[], string, string>;
  service_scale: boolean;
  updated_at: Generated<Date>;
}

/** A CoinJoin a cluster's addresses took part in, as utxo_clusters keeps it. */
export interface ExcludedCoinJoinRow {
  txid: string;
  kind: string;
  confidence: string;
  reason: string;
}

/** Which stored cluster an address is in (an address in none is alone in its cluster). */
export interface UtxoClusterMembersTable {
  chain_id: number;
  address: string;
  key: ColumnType<string, string | bigint, string | bigint>;
}

/** A bridge's event on one chain (migrations/0047_bridge_legs.sql), written by the indexer in src/chains and by the
 * ethereum-etl import (logs.csv) in src/ingest, through src/chains/store. */
export interface BridgeLegsTable {
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_number: Decimal;
  block_time: Timestamp;
  /** "across" | "cctp" | "oft" */
  protocol: string;
  direction: "out" | "in";
  /** what the two legs of one crossing share: Across origin:depositId, CCTP domain:nonce, OFT guid */
  pair_key: string;
  contract: string;
  sender: string;
  recipient: string;
  token: string;
  amount: Decimal;
  other_ref: string;
  other_chain_id: number | null;
}

export interface LedgerTables {
  transfers: TransfersTable;
  bridge_legs: BridgeLegsTable;
  tokens: TokensTable;
  address_facts: AddressFactsTable;
  labels: LabelsTable;
  prices: PricesTable;
  fx_rates: FxRatesTable;
  blocks: BlocksTable;
  indexer_checkpoints: IndexerCheckpointsTable;
  explorer_fetches: ExplorerFetchesTable;
  /** the deposit-address inference's verdicts (migrations/0010_deposit_addresses.sql), written by src/attribution */
  deposit_addresses: DepositAddressesTable;
  /** labels that appeared or changed, written by the label imports and the deposit-address inference */
  label_changes: LabelChangesTable;
  /** a UTXO chain's address clusters (migrations/0048_utxo_clusters.sql), written by src/clusters */
  utxo_clusters: UtxoClustersTable;
  utxo_cluster_members: UtxoClusterMembersTable;
}
