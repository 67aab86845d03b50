-- Per-key rate limits counted once for a whole fleet of API processes on one PostgreSQL
-- (src/platform/http/shared-rate-store.ts; docs/operations.md, "Rate limits in a fleet"): one row per limited key,
-- its window (from its first request, as long as the route's time window) and the requests counted in it.
-- Unlogged: the counts are worth nothing after a crash, and their writes skip the WAL.
CREATE UNLOGGED TABLE rate_limit_hits (
  key text PRIMARY KEY,
  -- the window's start and length, in epoch milliseconds (the database's clock)
  window_start bigint NOT NULL,
  window_ms bigint NOT NULL,
  hits integer NOT NULL
);
