-- Notifications to integrators (src/notifications; docs/api.md, "Calls to the integrator"): an outbox of messages,
-- delivered at least once by whichever worker claims them, and every delivery attempt.
--
-- A message is claimed by a worker for a lease (status 'delivering', lease_until); a worker that dies mid-delivery
-- leaves its lease to expire and another worker retries it, with the same message_id (the `webhook-id`), so a
-- receiver that deduplicates on it sees each message once. Messages of a project without an integration_url wait,
-- recorded, until it has one.
CREATE TABLE notifications (
  -- `data.id` of the notification body
  id bigserial PRIMARY KEY,
  -- `webhook-id`: the same for every attempt of the message
  message_id text NOT NULL UNIQUE,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- the monitored address and the transfer it is about (null for messages not about one transfer)
  address_id bigint REFERENCES monitored_addresses (id),
  chain_id integer,
  tx_hash text,
  log_index integer,
  type text NOT NULL CHECK (type IN ('notification', 'error')),
  -- the body as JSON (for `notification`, its data.id is filled in from `id` when it is sent)
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
  -- attempts made so far; `round_start`: the attempts before the latest redelivery (each round has the schedule)
  attempts integer NOT NULL DEFAULT 0,
  round_start integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- one notification per monitored address and transfer, however many workers saw it
CREATE UNIQUE INDEX notifications_once ON notifications (address_id, chain_id, tx_hash, log_index)
  WHERE address_id IS NOT NULL;
CREATE INDEX notifications_due ON notifications (next_attempt_at) WHERE status IN ('pending', 'delivering');
CREATE INDEX notifications_by_project ON notifications (project_id, id DESC);

CREATE TABLE notification_attempts (
  notification_id bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  -- the HTTP status, or null when no answer came
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  PRIMARY KEY (notification_id, attempt)
);

-- A rotated-out webhook secret stays valid until then: Standard Webhooks messages carry both signatures.
ALTER TABLE projects
  ADD COLUMN previous_webhook_secret_enc text,
  ADD COLUMN previous_webhook_secret_until timestamptz;
