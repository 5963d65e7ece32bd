CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  username text NOT NULL,
  first_name text NOT NULL,
  last_name text,
  password_hash text,
  email_verified_at timestamptz,
  image text NOT NULL,
  plan text NOT NULL DEFAULT 'free',
  roles text[] NOT NULL DEFAULT '{}',
  payment_customer_id text,
  wallet_balance bigint NOT NULL DEFAULT 0,
  onboard boolean NOT NULL DEFAULT false,
  feedback_rating integer CHECK (feedback_rating BETWEEN 1 AND 5),
  feedback_review text,
  feedback_created_at timestamptz,
  feedback_updated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  last_login_at timestamptz
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

CREATE TABLE auth_identities (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject)
);
CREATE INDEX auth_identities_user_idx ON auth_identities (user_id);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  user_agent text
);
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE mail_tokens (
  id text PRIMARY KEY,
  token_hash text NOT NULL,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE UNIQUE INDEX mail_tokens_hash_key ON mail_tokens (token_hash);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_secret_hash_key ON api_keys (secret_hash);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE settings (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  roboflow_upload_all_weights boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE feature_flags (
  name text PRIMARY KEY,
  enabled boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
INSERT INTO feature_flags (name, enabled) VALUES ('cloudTraining', false), ('teamsCollaboration', true), ('walletTopUp', false);

CREATE TABLE analytics_events (
  id text PRIMARY KEY,
  user_id text,
  name text NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analytics_events_user_idx ON analytics_events (user_id, created_at);
CREATE INDEX analytics_events_name_idx ON analytics_events (name, created_at);

CREATE TABLE presence (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  connected_at timestamptz,
  last_seen_at timestamptz,
  connections integer NOT NULL DEFAULT 0,
  platform text NOT NULL DEFAULT 'web'
);

CREATE TABLE mail_outbox (
  id text PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  error text
);
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  queue text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  progress jsonb,
  dedupe_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_claim_idx ON jobs (queue, status, run_at);
CREATE UNIQUE INDEX jobs_dedupe_key ON jobs (dedupe_key);

CREATE TABLE blob_usage (
  key text PRIMARY KEY,
  user_id text,
  bytes bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blob_usage_user_idx ON blob_usage (user_id);
