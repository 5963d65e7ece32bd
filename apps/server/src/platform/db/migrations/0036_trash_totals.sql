-- Per-owner trash totals (ADR 0042): how many datasets, projects and models a user's trash holds and
-- their bytes, read in O(1) by the trash page's first page instead of summing the user's trash.
-- Triggers keep it, so every write path (services, the purge job, a user's cascade, admin SQL) moves
-- it in the same transaction as the rows; concurrent writers of one owner queue on its row.
CREATE TABLE trash_totals (
  user_id text PRIMARY KEY,
  count bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0
);

-- A row's share of its owner's totals: 1 and its bytes while it is in the trash (deleted_at set).
-- The bytes column is `bytes` for datasets and models, `image_bytes` for projects (a record's fields
-- are resolved when a statement first runs, so each table's branch reads only its own).
CREATE OR REPLACE FUNCTION sightline_trash_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_bytes bigint := 0;
  new_bytes bigint := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NOT NULL THEN
    IF TG_TABLE_NAME = 'projects' THEN
      old_bytes := OLD.image_bytes;
    ELSE
      old_bytes := OLD.bytes;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NOT NULL THEN
    IF TG_TABLE_NAME = 'projects' THEN
      new_bytes := NEW.image_bytes;
    ELSE
      new_bytes := NEW.bytes;
    END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NOT NULL AND OLD.user_id = NEW.user_id THEN
    -- still in the trash, same owner: only the bytes can have moved
    IF new_bytes <> old_bytes THEN
      UPDATE trash_totals SET bytes = bytes + new_bytes - old_bytes WHERE user_id = NEW.user_id;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NOT NULL THEN
    UPDATE trash_totals SET count = count - 1, bytes = bytes - old_bytes WHERE user_id = OLD.user_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NOT NULL THEN
    INSERT INTO trash_totals (user_id, count, bytes) VALUES (NEW.user_id, 1, new_bytes)
      ON CONFLICT (user_id) DO UPDATE SET count = trash_totals.count + 1, bytes = trash_totals.bytes + EXCLUDED.bytes;
  END IF;
  RETURN NULL;
END $$;

-- Live rows never reach the function: most writes (edits, stats, training) cost nothing more.
CREATE TRIGGER datasets_trash_totals_insert AFTER INSERT ON datasets FOR EACH ROW
  WHEN (NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER datasets_trash_totals_update AFTER UPDATE OF deleted_at, bytes, user_id ON datasets FOR EACH ROW
  WHEN (OLD.deleted_at IS NOT NULL OR NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER datasets_trash_totals_delete AFTER DELETE ON datasets FOR EACH ROW
  WHEN (OLD.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER projects_trash_totals_insert AFTER INSERT ON projects FOR EACH ROW
  WHEN (NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER projects_trash_totals_update AFTER UPDATE OF deleted_at, image_bytes, user_id ON projects FOR EACH ROW
  WHEN (OLD.deleted_at IS NOT NULL OR NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER projects_trash_totals_delete AFTER DELETE ON projects FOR EACH ROW
  WHEN (OLD.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER models_trash_totals_insert AFTER INSERT ON models FOR EACH ROW
  WHEN (NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER models_trash_totals_update AFTER UPDATE OF deleted_at, bytes, user_id ON models FOR EACH ROW
  WHEN (OLD.deleted_at IS NOT NULL OR NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();
CREATE TRIGGER models_trash_totals_delete AFTER DELETE ON models FOR EACH ROW
  WHEN (OLD.deleted_at IS NOT NULL) EXECUTE FUNCTION sightline_trash_totals();

-- Backfill: what the trash holds now.
INSERT INTO trash_totals (user_id, count, bytes)
SELECT user_id, sum(n), sum(b) FROM (
  SELECT user_id, count(*) AS n, coalesce(sum(bytes), 0) AS b FROM datasets WHERE deleted_at IS NOT NULL GROUP BY user_id
  UNION ALL
  SELECT user_id, count(*), coalesce(sum(image_bytes), 0) FROM projects WHERE deleted_at IS NOT NULL GROUP BY user_id
  UNION ALL
  SELECT user_id, count(*), coalesce(sum(bytes), 0) FROM models WHERE deleted_at IS NOT NULL GROUP BY user_id
) t GROUP BY user_id;
