-- Per-address summaries kept where data enters: how many transfers each address has sent and received on its
-- chain (docs/decisions/0019). The graph expansion reads them with each counterparty's other facts and does not
-- expand through a busy address (one whose transfers dilute any path through it), so it never reads such an
-- address's history. Every writer of `transfers` keeps them in the same transaction (src/chains/store/transfers.ts,
-- src/ingest/etl/transfer-writer.ts) and a reorg unwind takes them back (src/chains/indexer/store.ts). A
-- self-transfer counts once on each side.
ALTER TABLE address_facts
  ADD COLUMN transfers_out bigint NOT NULL DEFAULT 0,
  ADD COLUMN transfers_in bigint NOT NULL DEFAULT 0;

-- The counts of what the store holds already: one pass over transfers (5 million took 29 s on PostgreSQL here).
UPDATE address_facts f SET transfers_out = c.sent, transfers_in = c.received
FROM (
  SELECT chain_id, address, sum(sent) AS sent, sum(received) AS received FROM (
    SELECT chain_id, from_address AS address, 1 AS sent, 0 AS received FROM transfers
    UNION ALL
    SELECT chain_id, to_address, 0, 1 FROM transfers
  ) sides
  GROUP BY chain_id, address
) c
WHERE f.chain_id = c.chain_id AND f.address = c.address;

-- The expansion reads them from the covering key, as it reads is_contract and first_seen_at (migration 0009).
ALTER TABLE address_facts
  DROP CONSTRAINT address_facts_pkey,
  ADD CONSTRAINT address_facts_pkey PRIMARY KEY (chain_id, address)
    INCLUDE (is_contract, first_seen_at, transfers_out, transfers_in);
