-- The facts a signed image link of a dataset is checked against (owner, team, privacy, trash, archive)
-- are cached per instance (datasets.link-facts.ts, ADR 0043) and evicted through NOTIFY like the caches
-- of migration 0017 (ADR 0017). Tag: d:<dataset id>. Edits (seq), progress and statistics do not send it.
CREATE OR REPLACE FUNCTION sightline_invalidate_dataset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sightline_invalidate_tag('d:' || OLD.id);
  RETURN NULL;
END $$;
CREATE TRIGGER datasets_invalidate_link_delete AFTER DELETE ON datasets FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_dataset();
CREATE TRIGGER datasets_invalidate_link_update AFTER UPDATE ON datasets FOR EACH ROW
  WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.team_id IS DISTINCT FROM NEW.team_id OR OLD.privacy IS DISTINCT FROM NEW.privacy
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.storage_key IS DISTINCT FROM NEW.storage_key)
  EXECUTE FUNCTION sightline_invalidate_dataset();
