-- A result as soon as the clients look (docs/decisions/0028-results-as-soon-as-clients-look.md): registering an
-- address starts its first scan, a risk job of the project (src/analysis/first-scans.ts). Such scans take at most
-- half of the project's cap on risk jobs queued or running (VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT), so a project's
-- registrations neither flood the queue nor take the places of its own POST /risk calls; past that share, the scan
-- waits here, oldest first, and is queued as a risk job when a place frees (a job of the project finishing, or the
-- workers' sweep). An address waiting here is `pending` in GET .../scan-risk.
CREATE TABLE deferred_scans (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  address text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, chain_id, address)
);
CREATE INDEX deferred_scans_oldest ON deferred_scans (project_id, requested_at);

-- GET .../scan-risk, monitored addresses' `risk` and wallet reports read an address's newest completed analysis of
-- any kind and chain (src/analysis/store.ts latestStored, latestVerdictMark), and whether one is still on its way
-- (unfinishedOf): by project and address, whatever the chain.
CREATE INDEX analyses_latest_any_chain ON analyses (project_id, address, completed_at DESC)
  WHERE status = 'completed';
CREATE INDEX analyses_unfinished ON analyses (project_id, address) WHERE status IN ('queued', 'running');
