-- Roboflow integration (spec §3 Integration, Subscription; Settings.integrations.roboflow is in 0001).
-- API keys are stored encrypted (AES-256-GCM, key derived from the server secret); never in clear.

CREATE TABLE integrations (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  type text NOT NULL DEFAULT 'roboflow',
  workspace text NOT NULL,
  workspace_name text NOT NULL,
  api_key_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX integrations_user_workspace_key ON integrations (user_id, type, workspace);

CREATE TABLE subscriptions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  collection text NOT NULL DEFAULT 'ext_roboflow',
  ref text NOT NULL,
  api_key_enc text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subscriptions_user_ref_key ON subscriptions (user_id, collection, ref);

-- One row per imported version: the unique key makes importing a version twice give one dataset.
CREATE TABLE roboflow_imports (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source text NOT NULL,
  workspace text NOT NULL,
  project text NOT NULL,
  version integer NOT NULL,
  format text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  phase text,
  done bigint NOT NULL DEFAULT 0,
  total bigint NOT NULL DEFAULT 0,
  error_code text,
  error text,
  dataset_id text,
  cancel_requested_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX roboflow_imports_version_key ON roboflow_imports (user_id, workspace, project, version);
