-- Address histories fetched from an explorer (src/chains/explorer): what time range of the address's history the
-- store now holds completely, so that later requests inside it need no explorer call.
--   covered_from: the store holds every transfer of the address from this time on (NULL: from its first one).
--                 After a capped fetch it is the oldest time reached, and `truncated` is true.
--   covered_to:   ... up to this time (NULL: up to fetched_at).
-- A row is written only after every page of the fetch is stored: a fetch that failed half-way leaves no row (or
-- the previous one), so nothing half-stored looks complete.
ALTER TABLE explorer_fetches
  ADD COLUMN covered_from timestamptz,
  ADD COLUMN covered_to timestamptz,
  ADD COLUMN truncated boolean NOT NULL DEFAULT false,
  -- kind and host of the explorer the history came from, e.g. 'blockscout eth.blockscout.com'
  ADD COLUMN source text;
