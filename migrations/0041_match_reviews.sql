-- The officer's review of a person match (src/screening/review, docs/api.md "Match review",
-- docs/decisions/0043-match-review.md): per monitored client and list entry, whether the pair was confirmed (the
-- client is the listed person) or discarded (a namesake), with the reason, who decided and when, and what was
-- reviewed: a fingerprint of the list entry's content and one of the profile's person that was screened. While
-- both fingerprints are those of a later screening, a discarded pair raises no alert and a confirmed one no second
-- one; when either changes, the pair alerts again and the review is marked superseded by that alert.
CREATE TABLE match_reviews (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- the integrator's id of the client
  user_id text NOT NULL,
  list text NOT NULL,
  entry_id text NOT NULL,
  -- `confirm` or `discard`
  decision text NOT NULL,
  reason text NOT NULL,
  -- who decided, as the audit names them (`key:<id>`, `user:<id>`)
  actor text NOT NULL,
  decided_at timestamptz NOT NULL,
  -- the alert the decision was taken on
  alert_id bigint NOT NULL,
  -- the person of the profile that matched (its name and role in the profile)
  subject text NOT NULL,
  role text NOT NULL,
  -- sha256 of the list entry's content (names, dates, countries, identifiers, programmes, remarks) as reviewed
  entry_fingerprint text NOT NULL,
  -- sha256 of the screened person's fields (name, type, dates, nationality, identifiers) as reviewed
  profile_fingerprint text NOT NULL,
  -- the version of the list the entry was read at
  list_version text NOT NULL,
  -- set when a later screening found the entry or the person changed and raised the pair again
  superseded_at timestamptz,
  superseded_by_alert bigint,
  PRIMARY KEY (project_id, user_id, list, entry_id)
);
