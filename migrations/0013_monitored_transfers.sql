-- The transfers of monitored addresses, recorded by the indexer in the transaction that writes them and moves its
-- checkpoint (src/monitoring/watch.ts), so each is recorded exactly once however many workers run and however
-- often they crash. Only transfers in blocks after the address was registered count: `watch_from_block` is the
-- chain's indexed head at registration (null when the chain was not indexed then: its first indexed blocks count
-- only from the registration time on), so importing history never notifies old transfers.
ALTER TABLE monitored_addresses ADD COLUMN watch_from_block bigint;

CREATE TABLE monitored_transfers (
  address_id bigint NOT NULL REFERENCES monitored_addresses (id),
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  -- pending: to be checked against the law rules; evaluated: checked (its notification, if any, is made);
  -- unwound: a reorg removed the transfer after it was checked (its notification is kept: docs/api.md)
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'evaluated', 'unwound')),
  notification_id bigint REFERENCES notifications (id),
  evaluated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (address_id, chain_id, tx_hash, log_index)
);

CREATE INDEX monitored_transfers_pending ON monitored_transfers (created_at) WHERE status = 'pending';
CREATE INDEX monitored_transfers_by_block ON monitored_transfers (chain_id, block_number);
