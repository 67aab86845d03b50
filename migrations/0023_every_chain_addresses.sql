-- Addresses monitored on every chain (docs/api.md, "Addresses and monitoring";
-- docs/decisions/0026-user-ids-and-every-chain-addresses.md): registered without `chainId`, as the original service's
-- clients do, an address is watched on every EVM chain the indexer follows. Such a record has no chain_id (null:
-- every chain), one row however many chains, and keeps where watching starts on each chain followed when it was
-- registered: `watch_from_blocks`, each chain's indexed head then (`{"31337": 1200, "137": null}`; a chain missing
-- or null counts from the registration time on, as a null watch_from_block does). The transfers it records carry
-- their own chain (monitored_transfers.chain_id), so notifications and reports name the transfer's chain.
--
-- An address is monitored at most once per project on each chain: never twice on one chain, and never on one
-- chain beside an every-chain record of the same address (checked at registration under the project's lock;
-- src/monitoring/store.ts). The indexes below keep the first two rules if that check were ever bypassed.
ALTER TABLE monitored_addresses ALTER COLUMN chain_id DROP NOT NULL;
ALTER TABLE monitored_addresses ADD COLUMN watch_from_blocks jsonb;

-- monitored_addresses_once (project_id, chain_id, address) still keeps single-chain records unique (nulls are
-- distinct in a unique index); an every-chain record is unique by address.
CREATE UNIQUE INDEX monitored_addresses_every_chain_once ON monitored_addresses (project_id, address)
  WHERE stopped_at IS NULL AND chain_id IS NULL;
-- the watcher: which projects monitor, on every chain, an address that a new transfer touches
CREATE INDEX monitored_addresses_watch_every_chain ON monitored_addresses (address)
  WHERE stopped_at IS NULL AND chain_id IS NULL;
