-- Notification records (ADR 0028): what the header bell counts and /notifications lists. Made by the
-- notifications module's listener of domain events (datasets, training, exports) and for team
-- invites; each row is addressed to one user. Rows older than NOTIFICATION_RETENTION_DAYS go when
-- the next record of the same user is made.
CREATE TABLE notifications (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- team.invite | dataset.processed | dataset.failed | training.completed | training.failed | export.succeeded
  kind text NOT NULL,
  -- team | dataset | model, its id, and its name when the record was made
  subject_kind text NOT NULL,
  subject_id text NOT NULL,
  subject_name text NOT NULL DEFAULT '',
  -- a failure's reason; for export.succeeded the format
  detail text,
  -- team.invite: the invite it announces (pending while the invite is open)
  invite_id text,
  -- team.invite: invite:<id>, one record per invite however often it is looked for (NULL for events)
  dedupe_key text,
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX notifications_user_dedupe_idx ON notifications (user_id, dedupe_key);
CREATE INDEX notifications_user_created_idx ON notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_user_unread_idx ON notifications (user_id) WHERE read_at IS NULL;
