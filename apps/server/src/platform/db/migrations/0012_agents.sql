-- GPU agents (sightline-agent), their jobs (cloud training and exports) and model exports.

-- Admin-configured GPU types: `match` is a case-insensitive substring of the nvidia-smi GPU name.
CREATE TABLE gpu_types (
  id text PRIMARY KEY,
  name text NOT NULL,
  match text NOT NULL,
  hourly_rate_micro bigint NOT NULL,
  images_per_second double precision NOT NULL DEFAULT 200,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per agent token: an admin's token joins the shared pool (owner_user_id NULL), a user's
-- token is a private agent that only takes that user's jobs. Only the token's hash is stored.
CREATE TABLE agents (
  id text PRIMARY KEY,
  name text NOT NULL,
  owner_user_id text REFERENCES users(id) ON DELETE CASCADE,
  created_by text NOT NULL,
  token_hash text NOT NULL,
  token_prefix text NOT NULL,
  hostname text,
  gpu_name text,
  gpu_memory_mb integer,
  gpu_count integer NOT NULL DEFAULT 0,
  cpu text,
  ultralytics_version text,
  agent_version text,
  gpu_type_id text REFERENCES gpu_types(id) ON DELETE SET NULL,
  registered_at timestamptz,
  last_heartbeat_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE UNIQUE INDEX agents_token_hash_key ON agents (token_hash);

-- Work for agents. queued → claimed → running → succeeded | failed | cancelled. A claimed or
-- running job holds a lease the agent renews by heartbeat; an expired lease requeues (exports, up
-- to max_attempts) or fails (training) the job with a reason.
CREATE TABLE agent_jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  model_id text NOT NULL,
  export_id text,
  gpu_type_id text,
  status text NOT NULL DEFAULT 'queued',
  agent_id text,
  args jsonb NOT NULL DEFAULT '{}',
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 1,
  run_key_id text,
  lease_until timestamptz,
  heartbeat_at timestamptz,
  cancel_requested_at timestamptz,
  error text,
  exit_code integer,
  charged boolean NOT NULL DEFAULT false,
  epochs integer,
  price_per_epoch_micro bigint,
  hold_micro bigint NOT NULL DEFAULT 0,
  settled_micro bigint NOT NULL DEFAULT 0,
  epochs_settled integer NOT NULL DEFAULT 0,
  hold_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_jobs_queue_idx ON agent_jobs (status, created_at);
CREATE INDEX agent_jobs_model_idx ON agent_jobs (model_id, created_at);

-- The job's console, in the order the agent sent it; (job, seq) makes a resent chunk land once.
CREATE TABLE agent_job_logs (
  job_id text NOT NULL REFERENCES agent_jobs(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, seq)
);

-- A requested export of a model; retries run new jobs for the same row (job_id is the latest).
CREATE TABLE model_exports (
  id text PRIMARY KEY,
  model_id text NOT NULL,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  format text NOT NULL,
  options jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued',
  job_id text,
  auto boolean NOT NULL DEFAULT false,
  file_name text,
  blob_key text,
  bytes bigint,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX model_exports_model_idx ON model_exports (model_id, created_at);
