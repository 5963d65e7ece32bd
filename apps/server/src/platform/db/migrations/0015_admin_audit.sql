-- Admin area (issue 15): the append-only audit log, disabled accounts, indexes for the admin user
-- search (prefix search on lower(); pg_trgm is not available everywhere, ADR 0015) and for the
-- analytics aggregates over analytics_events.

CREATE TABLE audit_log (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  action text NOT NULL,
  -- who did it (null: the system, or an anonymous caller such as a failed sign-in)
  actor_id text,
  actor_label text,
  -- what it was done to
  target_type text,
  target_id text,
  target_label text,
  -- the account the entry concerns (shown to that user as a security event)
  user_id text,
  outcome text NOT NULL DEFAULT 'success',
  ip text,
  user_agent text,
  meta jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_created_idx ON audit_log (created_at, seq);
CREATE INDEX audit_log_action_idx ON audit_log (action, created_at);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at);
CREATE INDEX audit_log_target_idx ON audit_log (target_id, created_at);
CREATE INDEX audit_log_user_idx ON audit_log (user_id, created_at);

-- Append-only in the database itself: no code path (nor a stray query) can change or remove an entry.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END
$$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

ALTER TABLE users ADD COLUMN disabled_at timestamptz;

-- Admin user search: prefix match on lower(...) with text_pattern_ops, keyset pages per sort.
CREATE INDEX users_email_lower_idx ON users (lower(email) text_pattern_ops);
CREATE INDEX users_username_lower_idx ON users (lower(username) text_pattern_ops);
CREATE INDEX users_first_name_lower_idx ON users (lower(first_name) text_pattern_ops);
CREATE INDEX users_created_id_idx ON users (created_at, id);
CREATE INDEX users_last_login_id_idx ON users ((coalesce(last_login_at, 'epoch'::timestamptz)), id);

-- Events over time: an index-only scan over the time range (name and user carried in the index).
CREATE INDEX analytics_events_created_idx ON analytics_events (created_at) INCLUDE (name, user_id);
-- Feedback list.
CREATE INDEX users_feedback_idx ON users (feedback_updated_at) WHERE feedback_created_at IS NOT NULL;
-- Jobs page: unfinished and failed jobs.
CREATE INDEX jobs_status_idx ON jobs (status, updated_at);
