-- The exchange's operations that met a law (src/exchange-operations' operationsMeeting): the 24-hour avisos of
-- Mexico are written from those that met an urgent rule, looked for every few seconds among the operations judged in
-- the last weeks. Most operations meet none, so the index holds only those that met one.
CREATE INDEX exchange_operations_met_idx ON exchange_operations (project_id, checked_at) WHERE laws <> '{}';
