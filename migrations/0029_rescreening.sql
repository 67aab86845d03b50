-- Re-screening when the service learns something new (src/rescreen, docs/api.md "Alerts").
--
-- label_changes: a log of the labels that appeared or changed, written in the same transaction as the label by the
-- imports (`vigia import tags`, `vigia sanctions update`) and by the deposit-address inference (a new attribution);
-- a ledger table, read by the re-screening.
CREATE TABLE label_changes (
  id bigserial PRIMARY KEY,
  -- 0: every chain
  chain_id integer NOT NULL,
  address text NOT NULL,
  label text NOT NULL,
  category text NOT NULL,
  source text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);

-- How far the re-screening has read the log: one row; the changes after it are still to be traced.
CREATE TABLE rescreen_cursor (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_change_id bigint NOT NULL DEFAULT 0,
  updated_at timestamptz
);
INSERT INTO rescreen_cursor (id, last_change_id) VALUES (true, 0);

-- Monitored addresses a change reaches, waiting to be re-scored: one row per project, chain and address however many
-- changes reach it (the first change is named; later ones join `change_ids`). A row is deleted once it is scored,
-- so a crash leaves the rest waiting; `claimed_until` keeps two workers from scoring the same one at once.
CREATE TABLE rescreen_pending (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  address text NOT NULL,
  change_ids bigint[] NOT NULL,
  -- hops from the address to the nearest newly labelled one
  hops integer NOT NULL,
  queued_at timestamptz NOT NULL,
  claimed_until timestamptz,
  PRIMARY KEY (project_id, chain_id, address)
);
CREATE INDEX rescreen_pending_queue ON rescreen_pending (project_id, queued_at);
