-- Compliance reports (src/reports; docs/api.md, "Compliance reports"; docs/reports/).
--
-- What the checker saw when it checked a monitored transfer, kept with it so that a report built later cites the
-- same facts: the law rules it infringed, and the USD price and MXN rate it was judged at.
ALTER TABLE monitored_transfers
  ADD COLUMN laws text[],
  ADD COLUMN price_usd numeric,
  ADD COLUMN mxn_per_usd numeric;
CREATE INDEX monitored_transfers_by_project ON monitored_transfers (project_id, status);

-- The database file store (src/platform/storage, for fleets): one row per stored file.
CREATE TABLE stored_files (
  path text PRIMARY KEY,
  content bytea NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every generation of a country's reports for a project and month (scheduled, on demand, or the 24-hour aviso of
-- one transfer), with what it wrote and why any file could not be written.
CREATE TABLE report_generations (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  country_code text NOT NULL CHECK (country_code IN ('MX', 'CO', 'SV', 'GT')),
  period text NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'api', 'urgent')),
  actor text NOT NULL,
  status text NOT NULL CHECK (status IN ('completed', 'failed')),
  written integer NOT NULL DEFAULT 0,
  unchanged integer NOT NULL DEFAULT 0,
  removed integer NOT NULL DEFAULT 0,
  -- [{userId, reason}]: the files not written, and why
  problems jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- the transfer of a 24-hour aviso
  address_id bigint,
  chain_id integer,
  tx_hash text,
  log_index integer,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_generations_by_period ON report_generations (project_id, country_code, period, id DESC);
CREATE INDEX report_generations_urgent ON report_generations (address_id, chain_id, tx_hash, log_index)
  WHERE trigger = 'urgent';

-- One row per report file. `path` is the file's name in the API (`mx/<projectId>/<YYYY-MM>/<userId>.xml`);
-- `storage_key` is where its bytes are (the path with the content's hash), so that replacing a draft writes the
-- new bytes first and switches the row after: a crash leaves the old file served, never a half-written one.
-- A draft is replaced by the next generation of its month; a filed file never changes: later changes become a
-- new version (`<userId>.v2.xml`, ...).
CREATE TABLE reports (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  country_code text NOT NULL CHECK (country_code IN ('MX', 'CO', 'SV', 'GT')),
  period text NOT NULL,
  -- monthly: a user's file of the month; urgent: a 24-hour aviso; zero: Mexico's informe en ceros
  kind text NOT NULL CHECK (kind IN ('monthly', 'urgent', 'zero')),
  user_id text,
  version integer NOT NULL DEFAULT 1,
  name text NOT NULL,
  path text NOT NULL UNIQUE,
  storage_key text NOT NULL,
  media_type text NOT NULL,
  sha256 text NOT NULL,
  size integer NOT NULL,
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'filed')),
  -- the user's profile the file was built from (encrypted JSON), so that a filed report can be reproduced
  profile_enc text,
  -- [{reference, digest}] of the avisos in an AVI file, to tell a changed aviso from an unchanged one
  entries jsonb NOT NULL DEFAULT '[]'::jsonb,
  generation_id bigint REFERENCES report_generations (id),
  -- the transfer of a 24-hour aviso
  address_id bigint,
  chain_id integer,
  tx_hash text,
  log_index integer,
  filed_at timestamptz,
  filed_by text,
  folio text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reports_list ON reports (project_id, country_code, period, name);
CREATE UNIQUE INDEX reports_urgent_once ON reports (address_id, chain_id, tx_hash, log_index, version)
  WHERE kind = 'urgent';
