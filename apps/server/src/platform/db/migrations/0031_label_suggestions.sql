-- Model-assisted labelling (ADR 0039). A pre-labelling job runs a model over a dataset's images;
-- what it proposes is kept in label_suggestions, apart from the labels, until accepted (the rows
-- become labels through the dataset's label write) or rejected. `image_id` is the image's stable
-- identity (dataset_images.image_id of the working state), so a suggestion outlives label edits.
CREATE TABLE prelabel_jobs (
  id text PRIMARY KEY,
  dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  model_id text NOT NULL REFERENCES models (id) ON DELETE CASCADE,
  split text,
  image_ids jsonb,
  conf double precision NOT NULL,
  class_map jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  done integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  suggested integer NOT NULL DEFAULT 0,
  boxes integer NOT NULL DEFAULT 0,
  error text,
  cancel_requested_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX prelabel_jobs_dataset_idx ON prelabel_jobs (dataset_id, created_at DESC);

CREATE TABLE label_suggestions (
  id text PRIMARY KEY,
  dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  image_id text NOT NULL,
  job_id text NOT NULL REFERENCES prelabel_jobs (id) ON DELETE CASCADE,
  model_id text NOT NULL,
  labels jsonb NOT NULL,
  conf jsonb NOT NULL,
  class_name text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by text
);
-- The pending suggestions of an image, of a dataset (accept all, the "with suggestions" filter).
CREATE INDEX label_suggestions_pending_idx ON label_suggestions (dataset_id, image_id) WHERE status = 'pending';
CREATE INDEX label_suggestions_job_idx ON label_suggestions (job_id);

-- The labeler team role (ADR 0039): labels a team's datasets, deletes nothing.
ALTER TABLE team_members DROP CONSTRAINT IF EXISTS team_members_role_check;
ALTER TABLE team_members ADD CONSTRAINT team_members_role_check CHECK (role IN ('owner', 'admin', 'member', 'labeler', 'viewer'));
ALTER TABLE team_invites DROP CONSTRAINT IF EXISTS team_invites_role_check;
ALTER TABLE team_invites ADD CONSTRAINT team_invites_role_check CHECK (role IN ('admin', 'member', 'labeler', 'viewer'));
