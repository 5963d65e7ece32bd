-- Run keys (ADR 0023): an API key may be limited to one cloud run's dataset, project and model.
-- NULL = a user's ordinary key (all of the user's rights).
ALTER TABLE api_keys ADD COLUMN scope jsonb;

-- Links bound to their holder (ADR 0023) cache a holder's team role per instance: a change of
-- membership or role evicts the member's entries (u:<user>), a deleted or handed-over team its
-- own (t:<team>), through the NOTIFY channel of migration 0017.
CREATE OR REPLACE FUNCTION sightline_invalidate_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM sightline_invalidate_tag('u:' || NEW.user_id);
  ELSE
    PERFORM sightline_invalidate_tag('u:' || OLD.user_id);
    IF TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id THEN
      PERFORM sightline_invalidate_tag('u:' || NEW.user_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER team_members_invalidate AFTER INSERT OR UPDATE OR DELETE ON team_members FOR EACH ROW EXECUTE FUNCTION sightline_invalidate_member();

CREATE OR REPLACE FUNCTION sightline_invalidate_team() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sightline_invalidate_tag('t:' || OLD.id);
  RETURN NULL;
END $$;
CREATE TRIGGER teams_invalidate AFTER UPDATE OR DELETE ON teams FOR EACH ROW
  EXECUTE FUNCTION sightline_invalidate_team();
