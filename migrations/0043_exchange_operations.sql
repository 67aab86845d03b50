-- The exchange's own operations (src/exchange-operations, docs/api.md "Exchange operations"): what a client did
-- inside the exchange (buys, sells, swaps, fiat deposits and withdrawals by SPEI, Pix and other rails, crypto
-- deposits and withdrawals, fees, custody snapshots), sent by the integrator. One row per operation and project,
-- idempotent by the integrator's own id; `body` is the item as accepted (normalised), so a second sending is
-- compared with it. The monitoring of operations (the client-level rules: fan-in, pass-through, fiat structuring,
-- third-party funding, withdrawal to risk) marks each one `checked_at` once judged, in the transaction that raises
-- its alerts: an operation not yet checked is found again after a crash.
CREATE TABLE exchange_operations (
  id bigserial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- the integrator's id of the operation (idempotency key) and of the client
  operation_id text NOT NULL,
  user_id text NOT NULL,
  kind text NOT NULL,
  -- when the operation was concluded
  at timestamptz NOT NULL,
  body jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  checked_at timestamptz,
  -- the operation rules that could not be judged when it was checked (no profile, no verdict), if any
  unjudged text[],
  -- the law rules it infringed when checked, those that could not be judged (no rate, no UMA for its day), and the
  -- valuations they were judged at, by rule book: what the reports cite, as for a monitored transfer
  laws text[],
  law_unjudged text[],
  valuations jsonb
);
CREATE UNIQUE INDEX exchange_operations_id_idx ON exchange_operations (project_id, operation_id);
CREATE INDEX exchange_operations_client_idx ON exchange_operations (project_id, user_id, at);
-- a month's operations of a project, for its files
CREATE INDEX exchange_operations_month_idx ON exchange_operations (project_id, at);
CREATE INDEX exchange_operations_unchecked_idx ON exchange_operations (id) WHERE checked_at IS NULL;

-- A project's parameters of the operation rules (a part of GET/PATCH /projects/{id}); absent ones take the
-- service's defaults (src/exchange-operations/settings.ts).
CREATE TABLE exchange_operation_settings (
  project_id integer PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  rules jsonb NOT NULL DEFAULT '{}'::jsonb
);

-- An exchange's record of a crypto deposit or withdrawal is matched to the transfer the chain monitoring recorded
-- (src/monitoring's monitoredTxHashes), by the project and the transaction's hash.
CREATE INDEX monitored_transfers_project_tx_idx ON monitored_transfers (project_id, tx_hash);
