-- The primary key of address_facts also carries the two facts the graph expansion reads of every counterparty
-- (src/analysis/graph/store.ts: is_contract, first_seen_at), so looking up the facts of a layer's counterparties
-- is an index-only scan instead of one heap page per address. Measured on bench/risk-store.ts's 5,000,000
-- transfers (PostgreSQL, EXPLAIN ANALYZE of the largest layer statement of a 50-address scan, 41,616
-- counterparties, warm cache): 503 ms before, 372 ms after. The keys are unchanged, so every ON CONFLICT
-- (chain_id, address) upsert works as before; an update that changes one of the two included columns is no
-- longer a HOT update. Index-only scans need the visibility map, which autovacuum keeps on PostgreSQL; the
-- embedded database has no autovacuum, so there pages written since its last VACUUM are read from the heap (as
-- before). Rebuilding the key locks address_facts once, for as long as it takes (about 3 s per million rows).
ALTER TABLE address_facts
  DROP CONSTRAINT address_facts_pkey,
  ADD CONSTRAINT address_facts_pkey PRIMARY KEY (chain_id, address) INCLUDE (is_contract, first_seen_at);
