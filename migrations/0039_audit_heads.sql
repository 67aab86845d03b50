-- The audit log's signed heads (src/projects/audit-head.ts, docs/operations.md "The audit log",
-- docs/decisions/0037-audit-head.md): per chain, its last entry (id, hash) and how many entries it holds, signed with
-- an HMAC key derived from the server secret. Every audit write moves its chain's head in its own transaction, under
-- the chain's lock, so the head never goes backwards; whoever can write the database but lacks the secret cannot
-- sign a head for a chain re-sealed after an edit, a truncation or a deletion. Chains of entries written before this
-- migration are linked and their heads signed once, by the process that applies it (src/projects/audit-upgrade.ts).
CREATE TABLE audit_heads (
  -- the project's id; 0 for the service's own chain (entries of no project)
  chain integer PRIMARY KEY,
  seq bigint NOT NULL,
  entry_id bigint NOT NULL,
  hash text NOT NULL,
  signed_at timestamptz NOT NULL,
  -- the public name of the secret whose key signed it (src/platform/crypto/secrets.ts), so a rotation still verifies
  key_id text NOT NULL,
  signature text NOT NULL
);

-- An alert's entries are read when the alert is served, to check its history against them (src/alerts/read.ts).
CREATE INDEX audit_log_target_idx ON audit_log (project_id, target, id);
