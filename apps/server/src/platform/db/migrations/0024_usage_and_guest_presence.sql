-- Spec §3 "usage counters per collection" in the user document, and §7 presence under
-- presence/guests (docs/spec-mapping.md, ADR 0026).

-- The counts are cached per instance under the tag n:<user id> (ADR 0017's mechanism): any row
-- that appears, disappears, goes to or comes back from the trash, or changes owner evicts them.
-- TG_ARGV[0] names the owner column of the table.
CREATE OR REPLACE FUNCTION sightline_invalidate_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM sightline_invalidate_tag('n:' || (to_jsonb(OLD) ->> TG_ARGV[0]));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM sightline_invalidate_tag('n:' || (to_jsonb(NEW) ->> TG_ARGV[0]));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER datasets_invalidate_usage_write AFTER INSERT OR DELETE ON datasets FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_usage('user_id');
CREATE TRIGGER datasets_invalidate_usage_update AFTER UPDATE ON datasets FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION sightline_invalidate_usage('user_id');
CREATE TRIGGER projects_invalidate_usage_write AFTER INSERT OR DELETE ON projects FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_usage('user_id');
CREATE TRIGGER projects_invalidate_usage_update AFTER UPDATE ON projects FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION sightline_invalidate_usage('user_id');
CREATE TRIGGER models_invalidate_usage_write AFTER INSERT OR DELETE ON models FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_usage('user_id');
CREATE TRIGGER models_invalidate_usage_update AFTER UPDATE ON models FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION sightline_invalidate_usage('user_id');
CREATE TRIGGER teams_invalidate_usage_write AFTER INSERT OR DELETE ON teams FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_usage('owner_id');
CREATE TRIGGER teams_invalidate_usage_update AFTER UPDATE ON teams FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.owner_id IS DISTINCT FROM NEW.owner_id)
  EXECUTE FUNCTION sightline_invalidate_usage('owner_id');

-- Signed-out visitors with the web app open (the spec's presence/guests): one row per socket,
-- removed when it closes; last_seen_at moves with the socket's pings, so rows left by a crashed
-- instance stop counting after a minute and are swept by the next guest connection.
CREATE TABLE presence_guests (
  id text PRIMARY KEY,
  connected_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  platform text NOT NULL DEFAULT 'web'
);
CREATE INDEX presence_guests_seen_idx ON presence_guests (last_seen_at);
