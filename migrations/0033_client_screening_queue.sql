-- Every monitored client screened, not only those that operate (src/screening/queue.ts): a client is queued when
-- its address is registered, as a row not screened yet (verdict `pending`, no persons kept, lists_key ''), and the
-- workers screen it from its profile as soon as a list is imported; a list change, or POST
-- /projects/{id}/screening/run, makes every row due again. A worker claims a batch at a time (`claimed_until`,
-- taken with SKIP LOCKED) so that two workers never screen one client at once; a claim that outlives its worker
-- lapses after a minute.
ALTER TABLE client_screenings ADD COLUMN claimed_until timestamptz;
CREATE INDEX client_screenings_due_idx ON client_screenings (screened_at);

-- The clients registered before: queued now. An address watched on every EVM chain has no chain of its own; its
-- alerts name chain 1 (the address reads the same on every EVM chain).
INSERT INTO client_screenings (project_id, user_id, subjects, profile_digest, lists_key, verdict, candidates,
    chain_id, address, address_id, screened_at)
  SELECT DISTINCT ON (m.project_id, m.foreign_user_id) m.project_id, m.foreign_user_id, '[]'::jsonb, '', '',
      'pending', '[]'::jsonb, COALESCE(m.chain_id, 1), m.address, m.id, m.created_at
    FROM monitored_addresses m
    WHERE m.stopped_at IS NULL
    ORDER BY m.project_id, m.foreign_user_id, m.id
  ON CONFLICT (project_id, user_id) DO NOTHING;
