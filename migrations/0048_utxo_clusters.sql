-- Address clusters of a UTXO chain (Bitcoin): the common-input heuristic gated by the CoinJoin fingerprints
-- (src/risk/utxo/clusters.ts, docs/decisions/0051-bitcoin-clusters.md), kept as transactions arrive
-- (src/clusters). A cluster has a row when it holds more than one address or took part in a CoinJoin; an address in
-- no row is alone in its cluster. Written in the transaction that writes the transfers of the same transactions.
CREATE TABLE utxo_clusters (
  chain_id integer NOT NULL,
  -- the store's key: made in the order clusters are first stored; when clusters merge, the earliest row stays
  key bigint NOT NULL,
  -- 'c:' and the cluster's first address seen, stable as the cluster grows
  id text NOT NULL,
  size integer NOT NULL,
  -- the first addresses seen, the first transactions whose common inputs joined them, the first CoinJoins its
  -- addresses took part in (txid, kind, confidence, reason): at most 20 each
  addresses text[] NOT NULL,
  joined_by text[] NOT NULL,
  coinjoins_excluded jsonb NOT NULL,
  -- reached the service-scale size: merged no further
  service_scale boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, key)
);
CREATE UNIQUE INDEX utxo_clusters_id ON utxo_clusters (chain_id, id);

CREATE TABLE utxo_cluster_members (
  chain_id integer NOT NULL,
  address text NOT NULL,
  key bigint NOT NULL,
  PRIMARY KEY (chain_id, address)
);
-- The members of a cluster, re-pointed when it merges into an earlier one.
CREATE INDEX utxo_cluster_members_key ON utxo_cluster_members (chain_id, key);

CREATE SEQUENCE utxo_cluster_keys;
