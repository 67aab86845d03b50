-- Layered (incremental) analyses and the investigations that start them (src/analysis/layered,
-- src/investigations; docs/api.md, "Investigations and layered analyses").
--
-- A layered analysis is an analyses row of kind 'investigation'. Layer k expands the addresses k hops from the
-- root; each layer is committed on its own, in one transaction with the row's progress and the expansion state
-- the next layer starts from, so a killed worker resumes at the first unfinished layer.
ALTER TABLE analyses
  ADD COLUMN incremental boolean NOT NULL DEFAULT false,
  ADD COLUMN completed_layers integer NOT NULL DEFAULT 0,
  -- the latest provisional score and pattern count (progress), set with each layer
  ADD COLUMN patterns_detected integer NOT NULL DEFAULT 0,
  ADD COLUMN started_at timestamptz,
  -- JSON: the expansion graph after the last completed layer (with its frontier) and that layer's patterns
  ADD COLUMN layer_state text;

-- One completed layer, never changed afterwards. `body` is the layer result (docs/api.md) as the JSON text
-- the API answers, so that every read of a completed layer is byte-identical.
CREATE TABLE analysis_layers (
  analysis_id uuid NOT NULL REFERENCES analyses (id) ON DELETE CASCADE,
  layer integer NOT NULL CHECK (layer >= 0),
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (analysis_id, layer)
);

-- An investigation names a wallet on a chain and points at the analysis that follows it; an earlier analysis of
-- the same wallet, chain and depth in the project is reused. Status and score are read from the analysis.
CREATE TABLE investigations (
  id uuid PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  address text NOT NULL,
  chain_id integer NOT NULL,
  incremental boolean NOT NULL,
  max_depth integer NOT NULL,
  analysis_id uuid REFERENCES analyses (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX investigations_by_project ON investigations (project_id, created_at DESC, id);
-- reuse: the latest layered analysis of (project, chain, address, depth) that has not failed
CREATE INDEX analyses_layered ON analyses (project_id, chain_id, address, max_depth, created_at DESC)
  WHERE kind = 'investigation';
