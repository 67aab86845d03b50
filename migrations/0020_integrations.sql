-- The integrator in one room (src/integrator): what the service sends to and reads from a project's integrator
-- leaves the projects table for its own, and the shared work of the monitoring and delivery workers is claimed with
-- leases so that one project's slow integrator delays only that project (docs/decisions/0023-fair-integrator.md).

-- A project's integrator: where it is, how calls to it are signed, and how it has been answering. One row per
-- project, made when the project's integration is first read or set.
CREATE TABLE integrations (
  project_id integer PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  integration_url text,
  signing_scheme text NOT NULL DEFAULT 'standard-webhooks'
    CHECK (signing_scheme IN ('standard-webhooks', 'hmac-canonical')),
  webhook_secret_enc text NOT NULL,
  previous_webhook_secret_enc text,
  previous_webhook_secret_until timestamptz,
  -- Since when every call to the integrator has failed (null: the last one succeeded), and the last failure's
  -- reason: the alert on an integrator failing for an hour, and what the project's admin reads.
  failing_since timestamptz,
  last_failure text,
  -- Deliveries to the integrator wait until then after its endpoint timed out or could not be reached, doubling
  -- with each such failure in a row (delivery_backoffs), so that its messages do not hold delivery slots.
  delivery_paused_until timestamptz,
  delivery_backoffs integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO integrations (project_id, integration_url, signing_scheme, webhook_secret_enc,
  previous_webhook_secret_enc, previous_webhook_secret_until, updated_at)
SELECT id, integration_url, signing_scheme, webhook_secret_enc, previous_webhook_secret_enc,
  previous_webhook_secret_until, updated_at
FROM projects;

ALTER TABLE projects
  DROP COLUMN integration_url,
  DROP COLUMN signing_scheme,
  DROP COLUMN webhook_secret_enc,
  DROP COLUMN previous_webhook_secret_enc,
  DROP COLUMN previous_webhook_secret_until;

-- A pending transfer is checked by the worker holding its lease. A worker that dies leaves its lease to run out,
-- and another takes the transfer over; a worker whose lease was taken over commits nothing (src/monitoring/claim.ts).
-- Each project's pending transfers in the order they are checked, and those under a lease (whose users are busy).
ALTER TABLE monitored_transfers ADD COLUMN lease_owner text, ADD COLUMN lease_until timestamptz;
CREATE INDEX monitored_transfers_pending_by_project
  ON monitored_transfers (project_id, created_at, block_number, log_index) WHERE status = 'pending';
CREATE INDEX monitored_transfers_leased ON monitored_transfers (lease_until)
  WHERE status = 'pending' AND lease_until IS NOT NULL;

-- An investigation an officer has closed (POST /projects/{id}/investigations/{id}/close): kept, and no longer
-- counted against the project's cap on open investigations.
ALTER TABLE investigations ADD COLUMN closed_at timestamptz;

-- Redeliveries an admin asked for, counted per project and minute (a tenant cannot keep the outbox busy).
ALTER TABLE notifications ADD COLUMN redelivered_at timestamptz;
CREATE INDEX notifications_redelivered ON notifications (project_id, redelivered_at)
  WHERE redelivered_at IS NOT NULL;
-- The outbox of each project in the order its messages fall due (each project's turn of the deliverer, its cap on
-- pending messages), and those being delivered (its limit on deliveries at once).
CREATE INDEX notifications_open_by_project ON notifications (project_id, next_attempt_at, id)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX notifications_delivering_by_project ON notifications (project_id) WHERE status = 'delivering';
