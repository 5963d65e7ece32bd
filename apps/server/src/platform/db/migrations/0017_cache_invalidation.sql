-- Per-instance caches (sessions, API keys, users, models for predict) are invalidated through
-- NOTIFY on channel `sightline_invalidate` (ADR 0017). Triggers send the tags, so every write path
-- (services, admin SQL, jobs, other instances) evicts the entries it affects; the notification is
-- delivered when the writing transaction commits. Tags: u:<user id>, m:<model id>, p:<project id>.

CREATE OR REPLACE FUNCTION sightline_invalidate_tag(tag text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sightline_invalidate', tag);
END $$;

-- users: any change (roles, plan, wallet, password, deletion…) is part of the cached principal.
CREATE OR REPLACE FUNCTION sightline_invalidate_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sightline_invalidate_tag('u:' || OLD.id);
  RETURN NULL;
END $$;
CREATE TRIGGER users_invalidate AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_user();

-- sessions, API keys, linked identities: evict their user's entries. Touches of last_seen_at /
-- last_used_at (once a minute per credential) do not.
CREATE OR REPLACE FUNCTION sightline_invalidate_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM sightline_invalidate_tag('u:' || NEW.user_id);
  ELSE
    PERFORM sightline_invalidate_tag('u:' || OLD.user_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_invalidate_delete AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_owner();
CREATE TRIGGER sessions_invalidate_update AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.token_hash IS DISTINCT FROM NEW.token_hash OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
  EXECUTE FUNCTION sightline_invalidate_owner();
CREATE TRIGGER api_keys_invalidate_delete AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_owner();
CREATE TRIGGER api_keys_invalidate_update AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION sightline_invalidate_owner();
CREATE TRIGGER auth_identities_invalidate AFTER INSERT OR UPDATE OR DELETE ON auth_identities FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_owner();

-- models (privacy, project, trash, deletion), their files (a new ONNX) and projects (privacy, trash).
CREATE OR REPLACE FUNCTION sightline_invalidate_model() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sightline_invalidate_tag('m:' || OLD.id);
  RETURN NULL;
END $$;
CREATE TRIGGER models_invalidate AFTER UPDATE OR DELETE ON models FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_model();

CREATE OR REPLACE FUNCTION sightline_invalidate_model_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM sightline_invalidate_tag('m:' || NEW.model_id);
  ELSE
    PERFORM sightline_invalidate_tag('m:' || OLD.model_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER model_files_invalidate AFTER INSERT OR UPDATE OR DELETE ON model_files FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_model_file();

CREATE OR REPLACE FUNCTION sightline_invalidate_project() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sightline_invalidate_tag('p:' || OLD.id);
  RETURN NULL;
END $$;
CREATE TRIGGER projects_invalidate AFTER UPDATE OR DELETE ON projects FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_project();
