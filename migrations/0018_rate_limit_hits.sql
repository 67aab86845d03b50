-- Per-key rate limits counted once for a whole fleet of API processes on one PostgreSQL
-- (src/platform/http/shared-rate-store.ts; docs/operations.md, "Rate limits in a fleet"): one row per limited key
-- and fixed window. Unlogged: the counts are worth nothing after a crash, and their writes skip the WAL.
CREATE UNLOGGED TABLE rate_limit_hits (
  key text NOT NULL,
  -- the window's start, in epoch milliseconds
  window_start bigint NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
