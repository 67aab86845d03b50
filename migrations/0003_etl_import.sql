-- `vigia import etl` (src/ingest/etl/): which process runs each import, so that a later run can tell a run whose
-- process was killed (its import_runs row still says 'running') from one still going, mark it failed and drop its
-- staging tables (etl_stage_<run id>_*). On PostgreSQL a live run also holds an advisory lock on its id.
CREATE TABLE etl_import_runs (
  run_id bigint PRIMARY KEY REFERENCES import_runs (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  host text NOT NULL,
  pid integer NOT NULL
);
