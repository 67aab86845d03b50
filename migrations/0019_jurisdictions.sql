-- Jurisdictions as data (src/jurisdictions; docs/regulation.md): each country is a folder, and nothing in the schema
-- lists them. Which jurisdiction governs a client, each jurisdiction's settings, the valuation each law was judged
-- at, a failed file as a row, and the filings an officer records without a file.

-- A fifth country is a folder, not a constraint.
ALTER TABLE report_generations DROP CONSTRAINT report_generations_country_code_check;
ALTER TABLE reports DROP CONSTRAINT reports_country_code_check;

-- The jurisdiction an address was registered under (POST /projects/{id}/addresses `jurisdiction`); null: the
-- client's profile decides (src/jurisdictions/governing.ts).
ALTER TABLE monitored_addresses ADD COLUMN jurisdiction text;

-- What each rule book valued the transfer at when it was checked: {"MX": {"day", "priceUsd", "currency",
-- "perUsd"}, "CO": ..., "XB": ...}, each on the transfer's day in that jurisdiction's time zone; and the rules that
-- could not be judged (no price, rate or UMA for the day). The reports cite these.
ALTER TABLE monitored_transfers ADD COLUMN valuations jsonb, ADD COLUMN unjudged text[];
-- The transfers checked before kept one USD price and one MXN rate, of the transfer's UTC day: they are what those
-- checks judged, so they stay cited as Mexico's and the international valuation; price_usd and mxn_per_usd are read
-- no more.
UPDATE monitored_transfers mt SET valuations = jsonb_build_object(
    'MX', jsonb_build_object('day', (t.block_time AT TIME ZONE 'UTC')::date, 'priceUsd', mt.price_usd,
      'currency', 'MXN', 'perUsd', mt.mxn_per_usd),
    'XB', jsonb_build_object('day', (t.block_time AT TIME ZONE 'UTC')::date, 'priceUsd', mt.price_usd,
      'currency', 'USD', 'perUsd', 1))
  FROM transfers t
  WHERE t.chain_id = mt.chain_id AND t.tx_hash = mt.tx_hash AND t.log_index = mt.log_index
    AND mt.status <> 'pending' AND mt.price_usd IS NOT NULL;

-- Each jurisdiction's settings ({"MX": {reporting entity, accumulation}, "CO": {codigo_sirel}, ...}), checked
-- against the jurisdiction's schema when saved; and how a client's jurisdiction is chosen.
ALTER TABLE projects
  ADD COLUMN jurisdiction_settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN client_jurisdiction jsonb;
UPDATE projects SET jurisdiction_settings = jsonb_build_object('MX', mx_reporting_entity)
  WHERE mx_reporting_entity IS NOT NULL AND mx_reporting_entity <> 'null'::jsonb;
ALTER TABLE projects DROP COLUMN mx_reporting_entity;

-- The law rules' ids as the dated rule tables name them: a rule keeps one id across the versions of its text.
UPDATE monitored_transfers SET laws =
  array_remove(
    array_replace(array_replace(array_replace(array_replace(array_replace(array_replace(array_replace(
      laws, 'MX-AV-210', 'MX-AVISO'), 'MX-AV-645-LEGACY', 'MX-AVISO'), 'MX-AV-ACC6M', 'MX-ACUMULACION'),
      'MX-AV-ACC6M-LEGACY', 'MX-ACUMULACION'), 'MX-LIST', 'MX-24H-LISTA'), 'MX-24H-SUSP', 'MX-24H-INDICIOS'),
      'SV-OTHER-25K', 'SV-REGULADA'),
    -- a crypto transfer is not cash: this rule is gone
    'SV-CASH-10K')
  WHERE laws IS NOT NULL;
UPDATE monitored_transfers SET laws = array_replace(laws, 'GT-CASH-10K', 'GT-INDICADOR-10K') WHERE laws IS NOT NULL;

-- A transfer may have a notification (its laws) and an error (a profile problem that blocks a report) at once.
DROP INDEX notifications_once;
CREATE UNIQUE INDEX notifications_once ON notifications (address_id, chain_id, tx_hash, log_index, type)
  WHERE address_id IS NOT NULL;

-- Files a generation could not write, one row per slot (kind and stem) while it fails: GET /reports lists them,
-- the calendar counts them, and a new or changed failure is notified once. A slot written later loses its row.
CREATE TABLE report_failures (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  country_code text NOT NULL,
  period text NOT NULL,
  kind text NOT NULL,
  -- the file's stem (the user id, `<user>.24h.<reference>`), or '' for a problem of the whole month
  stem text NOT NULL,
  user_id text,
  -- a reason class for the metric (profile_unreadable, profile_incomplete, no_value, no_reporting_entity, invalid_file)
  code text NOT NULL,
  reason text NOT NULL,
  -- the profile field at fault, when one is
  field text,
  -- the file it blocks, as a person reads it
  blocks text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, country_code, period, kind, stem)
);

-- Filings Vigía writes no file for (Colombia's report of absence of suspicious operations), as an officer records
-- them (POST /reports/calendar/filed).
CREATE TABLE filing_marks (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  country_code text NOT NULL,
  period text NOT NULL,
  filing text NOT NULL,
  folio text,
  filed_at timestamptz NOT NULL,
  filed_by text NOT NULL,
  PRIMARY KEY (project_id, country_code, period, filing)
);
