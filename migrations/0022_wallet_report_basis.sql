-- What a wallet report's risk rests on (src/narratives; docs/api.md, "Wallet background report"): the project's
-- latest analysis of the address of any kind (scan, risk job, investigation; an investigation still running by
-- its latest completed layer) or, when it has none, a quick check made for the report. The cached report keeps
-- which analysis, completed when, and how many layers of a running investigation it was written from, so that a
-- read finding a newer one writes the report again; the generations log keeps the same, and the role of a key
-- that asked for a refresh.
ALTER TABLE wallet_reports
  -- 'scan', 'job', 'investigation', 'quick' (made for the report) or 'none' (no verdict: no transactions held)
  ADD COLUMN risk_source text NOT NULL DEFAULT 'none',
  ADD COLUMN analysis_id text,
  -- when the analysis completed, or when the running investigation's latest layer did
  ADD COLUMN analysis_at timestamptz,
  -- the completed layers of an investigation still running; null for a finished analysis
  ADD COLUMN analysis_layers integer;

ALTER TABLE wallet_report_generations
  ADD COLUMN risk_source text NOT NULL DEFAULT 'none',
  ADD COLUMN analysis_id text,
  -- the role of the key that asked for recreate=true; null for a report written because none was cached
  ADD COLUMN refresh_role text;
