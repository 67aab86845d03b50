-- Exchange deposit addresses inferred from the transfers in the store (src/attribution, docs/decisions/0010): an
-- unlabelled address that forwards what it receives to the labelled wallets of one exchange is that exchange's
-- deposit address. Every address that has sent to an exchange wallet is a candidate and has a row here, judged:
-- `attributed` ones are deposit addresses, with the evidence a person can check; the others keep the reason they
-- are not. The verdicts are kept current where transfers enter the store (ETL import, indexer, explorer history,
-- reorg unwinds: any transfer of a candidate, or to an exchange wallet, re-judges its sender) and where exchange
-- labels change (label imports); analyses read them, never recompute them. A stored label always wins.
CREATE TABLE deposit_addresses (
  chain_id integer NOT NULL,
  address text NOT NULL,
  attributed boolean NOT NULL,
  -- why it is not a deposit address (null when attributed)
  reason text,
  -- the exchange's name as its labels write it (e.g. 'Binance'), and the labelled wallets it swept to (sorted, at
  -- most 20); the figures below are those of its sweeps to that exchange. Null when not attributed.
  exchange text,
  hot_wallets text[],
  sweeps integer,
  -- transfers it received from others than the exchange, and from how many senders
  received integer,
  senders integer,
  -- the share of what it received (before its last sweep) that it forwarded to the exchange, 0-1
  swept_share real,
  median_sweep_seconds integer,
  -- 0-100, as labels
  confidence integer,
  first_sweep_at timestamptz,
  last_sweep_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address)
);
