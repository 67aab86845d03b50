-- The chain data store: every way transfers, labels and prices enter the service lands here, and the risk engine
-- reads only from here. EVM addresses and hashes are lowercase 0x-hex text; amounts are exact integers in the
-- token's smallest unit.

CREATE TABLE blocks (
  chain_id integer NOT NULL,
  number bigint NOT NULL,
  hash text NOT NULL,
  parent_hash text,
  timestamp timestamptz NOT NULL,
  PRIMARY KEY (chain_id, number)
);

-- A native-coin transfer of a successful transaction (log_index -1) or an ERC-20 Transfer event.
CREATE TABLE transfers (
  chain_id integer NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  block_time timestamptz NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  -- 'native' or the token contract's address
  token text NOT NULL,
  value numeric(78, 0) NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
-- The risk engine's query: all transfers of a set of addresses in a time window, newest first.
CREATE INDEX transfers_from_time_idx ON transfers (chain_id, from_address, block_time DESC);
CREATE INDEX transfers_to_time_idx ON transfers (chain_id, to_address, block_time DESC);
-- Reorg unwinding and per-block reads.
CREATE INDEX transfers_block_idx ON transfers (chain_id, block_number);

CREATE TABLE tokens (
  chain_id integer NOT NULL,
  address text NOT NULL,
  symbol text,
  name text,
  decimals integer,
  PRIMARY KEY (chain_id, address)
);

CREATE TABLE address_facts (
  chain_id integer NOT NULL,
  address text NOT NULL,
  first_seen_block bigint,
  first_seen_at timestamptz,
  is_contract boolean NOT NULL DEFAULT false,
  PRIMARY KEY (chain_id, address)
);

-- Labels of addresses. chain_id 0 means "on every chain" (an EVM address is the same key everywhere).
CREATE TABLE labels (
  id bigserial PRIMARY KEY,
  address text NOT NULL,
  chain_id integer NOT NULL DEFAULT 0,
  label text NOT NULL,
  -- normalised category (exchange, mixer, sanctioned, illicit, bridge, defi, ...); the original is kept beside it
  category text NOT NULL,
  original_category text,
  source text NOT NULL,
  -- 0-100, GraphSense's confidence scale
  confidence integer NOT NULL DEFAULT 50,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (address, chain_id, category, source)
);
CREATE INDEX labels_address_idx ON labels (address);
CREATE INDEX labels_category_idx ON labels (category);

-- Daily USD prices of native coins and tokens.
CREATE TABLE prices (
  chain_id integer NOT NULL,
  token text NOT NULL,
  day date NOT NULL,
  price_usd numeric NOT NULL,
  PRIMARY KEY (chain_id, token, day)
);

-- Daily exchange rates: units of `currency` per US dollar (MXN, COP, GTQ, ...).
CREATE TABLE fx_rates (
  day date NOT NULL,
  currency text NOT NULL,
  per_usd numeric NOT NULL,
  PRIMARY KEY (day, currency)
);

-- Where each chain's indexer stands: the last block it stored, and that block's hash (to detect reorgs).
CREATE TABLE indexer_checkpoints (
  chain_id integer PRIMARY KEY,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Address histories fetched from an explorer, so that a second analysis does not fetch them again.
CREATE TABLE explorer_fetches (
  chain_id integer NOT NULL,
  address text NOT NULL,
  fetched_at timestamptz NOT NULL,
  transfer_count integer NOT NULL,
  PRIMARY KEY (chain_id, address)
);

-- One row per import command run: what was imported, how far it got, and whether it completed.
CREATE TABLE import_runs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  source text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  rows_read bigint NOT NULL DEFAULT 0,
  rows_written bigint NOT NULL DEFAULT 0,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
