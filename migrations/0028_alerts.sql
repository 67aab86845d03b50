-- Alerts: what the compliance officer acts on (src/alerts, docs/api.md "Alerts"). One alert per subject (project,
-- chain, address) and cause while it is not closed: a second occurrence adds its evidence to the open alert
-- rather than opening another. Each change of an alert is appended to alert_history with who and when.
CREATE TABLE alerts (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  address text NOT NULL,
  -- the integrator's user of the monitored address, when known
  user_id text,
  -- `law` (a rule infringed by a monitored transfer: cause_key is the rule's id) or `analysis` (an analysis of the
  -- monitored address reached the project's alert level: cause_key `risk`)
  cause text NOT NULL,
  cause_key text NOT NULL,
  -- the rule's risk for law alerts (`illegal`, `warn`), the risk level for analysis alerts
  level text NOT NULL,
  reason text NOT NULL,
  -- transfers (hash, log index, time, USD, direction, counterparty), laws with their sources, wallets
  evidence jsonb NOT NULL,
  -- the filing that is due because of it, if any: when, what, and the legal source of the deadline
  deadline timestamptz,
  deadline_filing text,
  deadline_source text,
  -- the monitored address's id and the notification that carried the first occurrence
  address_id bigint,
  notification_id bigint,
  status text NOT NULL DEFAULT 'open',
  resolution text,
  reference text,
  assignee text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX alerts_once_while_open ON alerts (project_id, chain_id, address, cause, cause_key)
  WHERE status <> 'closed';
CREATE INDEX alerts_inbox_idx ON alerts (project_id, id);

CREATE TABLE alert_history (
  id bigserial PRIMARY KEY,
  alert_id bigint NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  -- `key:<id>` for an API key, `system` for the service
  actor text NOT NULL,
  -- what happened: raised, evidence added, or the fields a PATCH changed with their old and new values, and a note
  change jsonb NOT NULL
);
CREATE INDEX alert_history_alert_idx ON alert_history (alert_id, id);

-- Which `warn` rules raise an alert too (illegal ones always do), and the risk level from which an analysis of a
-- monitored address raises one (null: the service's VIGIA_ALERT_LEVEL), per project.
CREATE TABLE alert_settings (
  project_id integer PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  warn_rules jsonb NOT NULL DEFAULT '[]'::jsonb,
  alert_level text
);
