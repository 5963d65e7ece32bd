-- Teams (issue 11): a team, its members with roles, and pending invites by email.
CREATE TABLE teams (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES users(id),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  image_path text,
  image_bytes bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX teams_owner_idx ON teams (owner_id);

CREATE TABLE team_members (
  team_id text REFERENCES teams(id) ON DELETE CASCADE,
  user_id text REFERENCES users(id),
  role text CHECK (role IN ('owner','admin','member','viewer')),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user_idx ON team_members (user_id);

CREATE TABLE team_invites (
  id text PRIMARY KEY,
  team_id text NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin','member','viewer')),
  invited_by text NOT NULL REFERENCES users(id),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  rejected_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX team_invites_token_key ON team_invites (token_hash);
CREATE UNIQUE INDEX team_invites_pending_key ON team_invites (team_id, lower(email))
  WHERE accepted_at IS NULL AND rejected_at IS NULL AND cancelled_at IS NULL;
CREATE INDEX team_invites_email_idx ON team_invites (lower(email));

CREATE INDEX datasets_team_idx ON datasets (team_id) WHERE team_id IS NOT NULL;
CREATE INDEX projects_team_idx ON projects (team_id) WHERE team_id IS NOT NULL;
CREATE INDEX models_team_idx ON models (team_id) WHERE team_id IS NOT NULL;
