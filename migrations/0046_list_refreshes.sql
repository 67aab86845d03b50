-- The workers' scheduled refresh of each public list (src/ingest/refresh): when it was last tried, when it last
-- succeeded, how it ended and how many times in a row it failed. One row per kind; the worker that claims a kind's
-- refresh moves `last_attempt_at` first, so that one process of a fleet fetches a list, not each.
CREATE TABLE list_refreshes (
  kind text PRIMARY KEY,
  last_attempt_at timestamptz,
  last_success_at timestamptz,
  last_outcome text,
  last_error text,
  failures integer NOT NULL DEFAULT 0
);
