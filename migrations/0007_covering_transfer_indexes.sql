-- The per-address indexes of transfers become covering indexes: every column the graph expansion reads of a
-- transfer (src/analysis/graph/store.ts) is in the index entry, so reading an address's newest transfers is an
-- index-only scan of a few adjacent leaf pages instead of one random heap page per transfer. Measured when adding
-- them, on bench/expansion.ts's store (1,000,000 transfers; the depth-3 expansion of 50 roots right after the
-- recursive CTE has pushed its pages out of the buffer cache; best of 3, three times each): 0.16-0.17 s with the
-- plain indexes, 0.14-0.15 s with these; reading a hub's 2 x 10,000 newest transfers on bench/risk-store.ts's
-- 5,000,000: 64 ms with the plain indexes (20,000 heap pages), a few ms with these.
--
-- They replace transfers_from_time_idx and transfers_to_time_idx (same keys, same order: every query those served,
-- these serve). The cost: each is about 2.4x the size of the index it replaces (the two together about twice the
-- table's size), so the store takes about 50% more disk and bulk imports write more. Index-only scans need the
-- visibility map, which autovacuum keeps on PostgreSQL; the embedded database has no autovacuum, so there the
-- pages written since its last VACUUM are still read from the heap (as before). Building them locks writes to
-- transfers for as long as it takes, once.
CREATE INDEX transfers_from_cover_idx ON transfers (chain_id, from_address, block_time DESC)
  INCLUDE (to_address, tx_hash, log_index, block_number, token, value);
DROP INDEX transfers_from_time_idx;
CREATE INDEX transfers_to_cover_idx ON transfers (chain_id, to_address, block_time DESC)
  INCLUDE (from_address, tx_hash, log_index, block_number, token, value);
DROP INDEX transfers_to_time_idx;
