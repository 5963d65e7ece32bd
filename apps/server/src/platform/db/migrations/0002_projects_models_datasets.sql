CREATE TABLE projects (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  team_id text,
  slug text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('private', 'unlisted', 'public')),
  image_key text,
  image_bytes bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX projects_owner_slug_key ON projects (user_id, slug);
CREATE INDEX projects_user_idx ON projects (user_id, updated_at DESC);
CREATE INDEX projects_public_idx ON projects (privacy, updated_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE datasets (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  team_id text,
  slug text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('private', 'unlisted', 'public')),
  provider text NOT NULL DEFAULT 'hub',
  task text NOT NULL DEFAULT 'detect',
  status text NOT NULL DEFAULT 'Initiating',
  storage_key text,
  filename text,
  bytes bigint NOT NULL DEFAULT 0,
  image_key text,
  stats jsonb,
  report jsonb,
  error text,
  upload_job text,
  roboflow jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  uploaded_at timestamptz,
  processed_at timestamptz,
  failed_at timestamptz,
  archived_at timestamptz,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX datasets_owner_slug_key ON datasets (user_id, slug);
CREATE INDEX datasets_user_idx ON datasets (user_id, updated_at DESC);
CREATE INDEX datasets_public_idx ON datasets (privacy, updated_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE models (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id text REFERENCES projects(id) ON DELETE SET NULL,
  team_id text,
  slug text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('private', 'unlisted', 'public')),
  sort_order integer,
  task text,
  names jsonb NOT NULL DEFAULT '[]',
  config jsonb NOT NULL,
  dataset_id text REFERENCES datasets(id) ON DELETE SET NULL,
  dataset_name text,
  architecture_id text,
  architecture_name text,
  parent_id text,
  parent_name text,
  parent_path text,
  parent_url text,
  hub_status text NOT NULL DEFAULT 'new',
  best_metrics jsonb,
  epochs_done integer NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz,
  deleted_at timestamptz,
  deleted_with_project boolean NOT NULL DEFAULT false,
  train_start timestamptz,
  train_end timestamptz,
  train_heartbeat timestamptz,
  train_initialized timestamptz
);
CREATE UNIQUE INDEX models_owner_project_slug_key ON models (user_id, coalesce(project_id, ''), slug);
CREATE INDEX models_project_idx ON models (project_id);
CREATE INDEX models_user_idx ON models (user_id, updated_at DESC);

CREATE TABLE model_files (
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  kind text NOT NULL,
  name text NOT NULL,
  blob_key text NOT NULL,
  bytes bigint NOT NULL,
  epoch integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (model_id, kind)
);

CREATE TABLE model_metrics (
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  epoch integer NOT NULL,
  metrics jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (model_id, epoch)
);
