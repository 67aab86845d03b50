-- The audit log as a hash chain per project (src/projects/audit-chain.ts, docs/operations.md "The audit log"): each
-- entry keeps the hash of the entry before it in its chain and its own, over its contents and that link. Entries
-- written before this migration have neither until the next write in their chain links them, in id order.
ALTER TABLE audit_log ADD COLUMN prev_hash text;
ALTER TABLE audit_log ADD COLUMN hash text;
