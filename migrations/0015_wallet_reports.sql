-- Wallet background reports (src/narratives; docs/api.md, "Wallet background report"): the cached report per
-- project, address, chain scope and language (a report may cite the project's own analyses, so it is never served
-- to another project), and a log of every generation with its writer, which also counts a project's LLM calls.
CREATE TABLE wallet_reports (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  address text NOT NULL,
  -- the chain id the report was narrowed to, or 0 for every chain
  chain_scope integer NOT NULL,
  lang text NOT NULL CHECK (lang IN ('en', 'es')),
  markdown text NOT NULL,
  writer text NOT NULL CHECK (writer IN ('llm', 'deterministic')),
  model text,
  facts_sha256 text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, address, chain_scope, lang)
);

CREATE TABLE wallet_report_generations (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  address text NOT NULL,
  chain_scope integer NOT NULL,
  lang text NOT NULL,
  writer text NOT NULL CHECK (writer IN ('llm', 'deterministic')),
  model text,
  facts_sha256 text NOT NULL,
  -- whether the LLM was called (what the per-project hourly limit counts)
  llm_called boolean NOT NULL,
  -- why the LLM's answer was not served (null when it was, or when no LLM was asked)
  fallback_reason text,
  duration_ms integer NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX wallet_report_generations_llm ON wallet_report_generations (project_id, created_at) WHERE llm_called;
