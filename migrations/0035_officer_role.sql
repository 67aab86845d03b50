-- The compliance officer's role (docs/api.md, "Authentication and roles"), between developer and admin: triage of
-- alerts, avisos, marking files and filings filed, generating a month, screening; no keys and no project settings.
ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_role_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('admin', 'officer', 'developer', 'viewer'));
