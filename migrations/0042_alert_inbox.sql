-- The inbox across all of a project's alerts (src/alerts/inbox.ts, docs/api.md "Alerts"): the alerts whose deadline
-- has passed come first, so the open alerts with a deadline are found by it without reading the others; a client's
-- alerts (the inbox's `client` filter and the case per client) and a subject's alerts (the alerts linked to one
-- transfer) are read by their own indexes; an assignee (`user:<id>` for a person) too. The case per client
-- (src/cases) reads a client's avisos and report files by the client.
CREATE INDEX alerts_open_deadline_idx ON alerts (project_id, deadline) WHERE status <> 'closed' AND deadline IS NOT NULL;
CREATE INDEX alerts_client_idx ON alerts (project_id, user_id, id);
CREATE INDEX alerts_subject_idx ON alerts (project_id, chain_id, address);
CREATE INDEX alerts_assignee_idx ON alerts (project_id, assignee, id) WHERE assignee IS NOT NULL;
CREATE INDEX avisos_client_idx ON avisos (project_id, user_id);
CREATE INDEX reports_client_idx ON reports (project_id, user_id);
