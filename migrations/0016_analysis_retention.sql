-- Retention of finished analyses (src/analysis/retention.ts; docs/api.md, "Retention"): a worker deletes, in
-- small batches, the analyses finished more than VIGIA_ANALYSIS_RETENTION_DAYS ago that no investigation points
-- at (their layers go with them). This index finds them oldest first without reading the whole table.
CREATE INDEX analyses_finished ON analyses (completed_at)
  WHERE status IN ('completed', 'failed');
