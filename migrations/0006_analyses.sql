-- Risk analyses (src/analysis): every scan-risk result, every POST /risk job, each with its analysis id.
--   kind:   'scan' (POST .../scan-risk), 'job' (POST /risk, run on the durable job queue), 'quick' and
--           'investigation' reserved for the other analysis entry points.
--   status: 'queued' -> 'running' -> 'completed' | 'failed' (a scan row is written once, completed or failed).
--   result: the full scan result (docs/api.md) plus the findings with their evidence, the exposure and the
--           breakdown of the score (what the API answers is rebuilt from it).
-- "The latest analysis of (project, chain, address, depth)" (skipExisting, stored results) reads
-- analyses_latest.
CREATE TABLE analyses (
  id uuid PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  address text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('scan', 'quick', 'job', 'investigation')),
  max_depth integer NOT NULL,
  window_from timestamptz,
  window_to timestamptz,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  risk_score integer,
  risk_level text,
  risk_reason text,
  suspicious_activity boolean,
  patterns jsonb NOT NULL DEFAULT '[]',
  result jsonb,
  model_version text,
  transactions_analyzed integer,
  unique_addresses integer,
  duration_ms integer,
  error text,
  -- the pg-boss job that runs a 'job' analysis
  job_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);

CREATE INDEX analyses_latest ON analyses (project_id, chain_id, address, max_depth, completed_at DESC)
  WHERE status = 'completed';
