-- A delivery attempt made during a rotation of an `hmac-canonical` secret is first signed with the rotated-out secret
-- and, when the integrator refuses it (401 or 403), sent again at once signed with the new one
-- (src/integrator/rotation.ts). The attempt's row keeps the answer that was recorded; these keep the refusal before
-- it, so that the notification's attempt_log shows both calls.
ALTER TABLE notification_attempts ADD COLUMN refused_status integer;
ALTER TABLE notification_attempts ADD COLUMN refused_ms integer;
