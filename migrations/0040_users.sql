-- People who sign in (src/users, docs/decisions/0039-people-and-sessions.md): named accounts of a project, their
-- browser sessions, the one-time links that set a password, and the failed sign-ins counted against an e-mail or an
-- address. API keys (api_keys) stay for machines.
CREATE TABLE users (
  id serial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- as the person typed it; unique across the service whatever its case (one account belongs to one project)
  email text NOT NULL,
  display_name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'officer', 'developer', 'viewer')),
  -- `scrypt$N$r$p$salt$hash` (src/users/password-hash.ts), null until a password is set (a set-password link, or
  -- an account that signs in only through OpenID Connect)
  password_hash text,
  -- the TOTP secret, sealed with the server secret; null when the account has no second factor
  totp_secret_enc text,
  -- a secret offered by setup and not yet confirmed by a code
  totp_pending_enc text,
  -- the last time step whose code was accepted: a code is never accepted twice
  totp_last_step bigint,
  lang text NOT NULL DEFAULT 'es' CHECK (lang IN ('es', 'en')),
  time_zone text NOT NULL DEFAULT 'America/Mexico_City',
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_idx ON users (lower(email));
CREATE INDEX users_project_idx ON users (project_id, id);

-- A signed-in browser. The cookie holds a random id; only its SHA-256 is kept here.
CREATE TABLE user_sessions (
  id_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- the synchronizer token every request other than GET/HEAD made with the cookie must send in x-csrf-token
  csrf_token text NOT NULL,
  -- `password` or `oidc`
  method text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  -- the absolute end; the idle end is last_seen_at plus the configured idle time
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);

-- One-time links that set a person's password (an account created without one). Only the token's SHA-256 is kept.
CREATE TABLE user_password_tokens (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- Failed sign-ins in a fixed window, per `email:<lower-case e-mail>` and per `address:<client address>`; past the
-- limit the key is refused until its window ends (src/users/login-limiter.ts).
CREATE TABLE login_failures (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL
);
