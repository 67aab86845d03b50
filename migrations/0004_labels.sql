-- Labels: an index for the imports that replace one source's labels (OFAC SDN updates, --replace), and the labels
-- Vigía ships with (src/ingest/labels/seed.ts holds the same rows): the Tornado Cash ETH pools on Ethereum mainnet.

CREATE INDEX labels_source_idx ON labels (source);

INSERT INTO labels (address, chain_id, label, category, original_category, source, confidence) VALUES
  ('0x12d66f87a04a9e220743712ce6d9bb1b5616b8fc', 1, 'Tornado.Cash: 0.1 ETH', 'mixer', 'mixer_pool', 'vigia-seed', 100),
  ('0x47ce0c6ed5b0ce3d3a51fdb1c52dc66a7c3c2936', 1, 'Tornado.Cash: 1 ETH', 'mixer', 'mixer_pool', 'vigia-seed', 100),
  ('0x910cbd523d972eb0a6f4cae4618ad62622b39dbf', 1, 'Tornado.Cash: 10 ETH', 'mixer', 'mixer_pool', 'vigia-seed', 100),
  ('0xa160cdab225685da1d56aa342ad8841c3b53f291', 1, 'Tornado.Cash: 100 ETH', 'mixer', 'mixer_pool', 'vigia-seed', 100)
ON CONFLICT (address, chain_id, category, source) DO NOTHING;
