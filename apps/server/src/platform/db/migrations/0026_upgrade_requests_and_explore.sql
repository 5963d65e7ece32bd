-- Reaching the admins when payments are off, and the public explore page (ADR 0030).

-- A user's request for a plan; admins grant it (the plan is set by hand, as in billing's admin
-- section) or dismiss it. One open request per user: asking again updates it.
CREATE TABLE upgrade_requests (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  plan text NOT NULL CHECK (plan IN ('pro', 'enterprise')),
  from_plan text NOT NULL,
  message text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'granted', 'dismissed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by text REFERENCES users(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX upgrade_requests_one_open ON upgrade_requests (user_id) WHERE status = 'open';
CREATE INDEX upgrade_requests_status_created ON upgrade_requests (status, created_at DESC, id);

-- The instance's support settings (one row): the admin contact shown on Support's Contact card.
CREATE TABLE support_settings (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  contact_email text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);

-- Explore lists live public items newest first (keyset on updated_at, id).
CREATE INDEX datasets_public_updated ON datasets (updated_at DESC, id) WHERE privacy = 'public' AND deleted_at IS NULL AND archived_at IS NULL;
CREATE INDEX projects_public_updated ON projects (updated_at DESC, id) WHERE privacy = 'public' AND deleted_at IS NULL AND archived_at IS NULL;
CREATE INDEX models_public_updated ON models (updated_at DESC, id) WHERE privacy = 'public' AND deleted_at IS NULL AND archived_at IS NULL;
