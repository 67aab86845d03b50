-- How far the chain's node is, as the indexer last saw it: the head block it read and when. With the checkpoint
-- (the last block the indexer confirmed) it gives each chain's lag, which /readyz, /metrics and the coverage of
-- every verdict show (docs/decisions/0024-ledger-and-coverage.md). The indexer writes them when it polls the head,
-- at most every few seconds; a chain whose indexer stopped keeps an old head_seen_at, and its verdicts say so.
ALTER TABLE indexer_checkpoints
  ADD COLUMN head_number numeric,
  ADD COLUMN head_seen_at timestamptz;
