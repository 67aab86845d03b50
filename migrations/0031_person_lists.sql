-- Screening of persons (src/screening, docs/api.md "Screening", docs/person-lists.md).
--
-- person_lists: every imported version of a list of persons (KIND: ofac-sdn, un, sat-69b, mx-lpb, ftm). One version
-- of each kind is current; an import of the same content (the digest of its entries) writes nothing, an import of
-- new content becomes current in the same transaction as its entries, and the entries of the version it replaces are
-- removed with it (the version's row stays, so that a past screening still names what it was screened against).
CREATE TABLE person_lists (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  -- the list's own version (OFAC's publish date, the UN's dateGenerated, ...) or `sha256:<digest prefix>`
  version text NOT NULL,
  list_date text,
  -- the official URL or the file it was read from
  source text NOT NULL,
  -- sha256 of the entries as read, in order: what decides that an import changes nothing
  digest text NOT NULL,
  entries integer NOT NULL,
  imported_at timestamptz NOT NULL,
  current boolean NOT NULL DEFAULT true
);
CREATE UNIQUE INDEX person_lists_one_current ON person_lists (kind) WHERE current;

-- The entries of the current versions: the names, dates, countries, identifiers and programmes of one listed person
-- or entity (src/screening/entry.ts), as one document.
CREATE TABLE person_list_entries (
  list_id bigint NOT NULL REFERENCES person_lists (id) ON DELETE CASCADE,
  entry_id text NOT NULL,
  entry jsonb NOT NULL,
  PRIMARY KEY (list_id, entry_id)
);

-- A project's thresholds per list (null: the defaults of src/screening/match/thresholds.ts).
CREATE TABLE screening_settings (
  project_id integer PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  thresholds jsonb NOT NULL DEFAULT '{}'::jsonb
);

-- The last screening of each monitored client (a user of the integrator): the persons screened as read from the
-- profile (the client, its representative and beneficial owners), against which versions of the lists, the
-- verdict and the candidates. Re-screened when a list changes (`lists_key` is no longer the current one). The
-- address it was first seen on is the subject of its alerts.
CREATE TABLE client_screenings (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  subjects jsonb NOT NULL,
  profile_digest text NOT NULL,
  lists_key text NOT NULL,
  verdict text NOT NULL,
  candidates jsonb NOT NULL,
  chain_id integer NOT NULL,
  address text NOT NULL,
  address_id bigint,
  screened_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX client_screenings_lists_idx ON client_screenings (lists_key);
