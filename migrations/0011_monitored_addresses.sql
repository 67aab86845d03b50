-- Addresses a project registers for monitoring (src/monitoring; docs/api.md, "Addresses and monitoring"). Each
-- belongs to one of the integrator's users (`foreign_user_id`, the AVI's id_usuario). Stopping monitoring
-- (DELETE) keeps the row, with `stopped_at`: the regulations require years of retention, and notifications point
-- at it. An address and chain are registered once per project among the rows still monitored.
CREATE TABLE monitored_addresses (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  address text NOT NULL,
  foreign_user_id text NOT NULL,
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  stopped_at timestamptz
);

CREATE UNIQUE INDEX monitored_addresses_once ON monitored_addresses (project_id, chain_id, address)
  WHERE stopped_at IS NULL;
-- the watcher: which projects monitor an address that a new transfer touches
CREATE INDEX monitored_addresses_watch ON monitored_addresses (chain_id, address) WHERE stopped_at IS NULL;
-- listing by user, and the accumulation across a user's addresses
CREATE INDEX monitored_addresses_by_user ON monitored_addresses (project_id, foreign_user_id, id);
