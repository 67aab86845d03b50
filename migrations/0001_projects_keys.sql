-- Projects, their API keys and the audit trail of key and settings changes.
CREATE TABLE projects (
  id serial PRIMARY KEY,
  name text NOT NULL,
  integration_url text,
  jurisdictions jsonb NOT NULL DEFAULT '[]'::jsonb,
  signing_scheme text NOT NULL DEFAULT 'standard-webhooks'
    CHECK (signing_scheme IN ('standard-webhooks', 'hmac-canonical')),
  -- The webhook signing secret, AES-256-GCM encrypted under the server secret.
  webhook_secret_enc text NOT NULL,
  -- The Mexican reporting entity (sujeto obligado) for the UIF's AVI report.
  mx_reporting_entity jsonb,
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id serial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  label text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'developer', 'viewer')),
  -- Keys are found by an HMAC-SHA256 of their value; the value itself is kept only encrypted.
  key_hmac text NOT NULL UNIQUE,
  key_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_project_idx ON api_keys (project_id, id);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  project_id integer REFERENCES projects (id) ON DELETE CASCADE,
  -- `key:<id>` for an API key, `cli` for the command line, `system` for the service itself.
  actor text NOT NULL,
  action text NOT NULL,
  target text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_project_idx ON audit_log (project_id, id);

-- Last known market and network statistics per chain, served when the upstream is slow or down.
CREATE TABLE chain_snapshots (
  chain_id integer PRIMARY KEY,
  data jsonb NOT NULL,
  fetched_at timestamptz NOT NULL
);
