-- Avisos due from knowledge rather than from a transfer (src/avisos): a client found on the UIF's Lista de Personas
-- Bloqueadas by a screening, whether or not it has operated since (LFPIORPI Art. 18 fracción VI: 24 hours from
-- learning of it). One row per project, jurisdiction, client, ground and cause, whoever finds it first; the reports
-- write its file (an AVI aviso of prioridad 2) and record here when it is written.
CREATE TABLE avisos (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  country_code text NOT NULL,
  user_id text NOT NULL,
  -- the ground, from the jurisdiction's catalog (src/jurisdictions/mx/known-avisos.ts): listed-person, attempt, ...
  basis text NOT NULL,
  -- what raised it: screening (a list found the client), attempt, officer
  origin text NOT NULL,
  -- what makes it one aviso: `<list>:<entry id>` for a listing
  cause_key text NOT NULL,
  -- the aviso's referencia (14 upper-case hex characters of its identity) and the month its file goes in
  reference text NOT NULL,
  period text NOT NULL,
  -- when the provider learned of it, and the deadline that runs from then
  known_at timestamptz NOT NULL,
  deadline timestamptz NOT NULL,
  -- the facts, as the file's descripcion_alerta says them
  narrative text NOT NULL,
  -- the monitored address the aviso names as the client's account, when one is known
  account text,
  -- the list entry of a listing: {list, listVersion, entryId, matchedName, score}
  listing jsonb,
  alert_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
  tx_hashes jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  -- when its file was written (or the client found governed by another jurisdiction), and the last failed try
  settled_at timestamptz,
  -- false once the client is found governed by another jurisdiction (or none of the project's): no file is owed
  owed boolean NOT NULL DEFAULT true,
  tried_at timestamptz
);
CREATE UNIQUE INDEX avisos_once ON avisos (project_id, country_code, user_id, basis, cause_key);
CREATE INDEX avisos_month_idx ON avisos (project_id, country_code, period);
CREATE INDEX avisos_unsettled_idx ON avisos (country_code, known_at) WHERE settled_at IS NULL;
