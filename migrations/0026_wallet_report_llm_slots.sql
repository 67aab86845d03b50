-- The hourly cap on LLM-written wallet reports (VIGIA_LLM_REPORTS_PER_HOUR) holds under concurrency: a report takes a
-- slot here before it calls the LLM, counted and inserted under the project's lock (src/narratives/report.ts), so
-- that requests at once cannot all pass the cap, whichever API process they reach. A slot is kept whatever the
-- call's outcome (the call was made: a failing or slow endpoint is not called past the cap either); the slots of a
-- project older than an hour are deleted by its next reservation.
CREATE TABLE wallet_report_llm_slots (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  reserved_at timestamptz NOT NULL
);
CREATE INDEX wallet_report_llm_slots_recent ON wallet_report_llm_slots (project_id, reserved_at);
