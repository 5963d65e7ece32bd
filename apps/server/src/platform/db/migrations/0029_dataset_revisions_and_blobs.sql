-- Datasets that evolve (ADR 0037): content-addressed image storage and image revisions by edit sequence.
--
-- A dataset keeps an edit sequence (`seq`): every edit takes seq + 1. `dataset_images` holds one row per
-- image *revision*: `image_id` is the image's identity across revisions, the row lives from `rev_from`
-- to `rev_to` (NULL: part of the working state). A version saved at seq S sees the rows with
-- rev_from <= S AND (rev_to IS NULL OR rev_to > S). `frozen_seq` is the seq of the newest version that
-- still exists (trashed included): rows created after it may be changed in place, older ones are ended
-- and replaced, so saving a version costs O(1).
ALTER TABLE datasets ADD COLUMN seq bigint NOT NULL DEFAULT 0;
ALTER TABLE datasets ADD COLUMN frozen_seq bigint NOT NULL DEFAULT 0;
ALTER TABLE datasets ADD COLUMN classes jsonb;
UPDATE datasets SET classes = stats -> 'summary' -> 'classes' WHERE stats IS NOT NULL;

ALTER TABLE dataset_images ADD COLUMN image_id text;
UPDATE dataset_images SET image_id = id;
ALTER TABLE dataset_images ALTER COLUMN image_id SET NOT NULL;
ALTER TABLE dataset_images ADD COLUMN rev_from bigint NOT NULL DEFAULT 0;
ALTER TABLE dataset_images ADD COLUMN rev_to bigint;
-- Hex SHA-256 of the image bytes and their count (NULL for rows processed before this migration).
ALTER TABLE dataset_images ADD COLUMN sha256 text;
ALTER TABLE dataset_images ADD COLUMN bytes bigint;
-- NULL: the bytes are a range of the dataset's archive (`source`); else the storage key of a dataset_blobs row.
ALTER TABLE dataset_images ADD COLUMN blob_key text;
ALTER TABLE dataset_images ADD COLUMN label_rev integer NOT NULL DEFAULT 1;

DROP INDEX dataset_images_browse_idx;
-- The working state: one row per image, browsed (and keyset-paged) by split, name, image id.
CREATE UNIQUE INDEX dataset_images_working_idx ON dataset_images (dataset_id, image_id) WHERE rev_to IS NULL;
CREATE INDEX dataset_images_browse_idx ON dataset_images (dataset_id, split, name, image_id) WHERE rev_to IS NULL;

-- Image bytes added by edits, content-addressed within one owner (`u:<userId>` or `t:<teamId>`), never
-- across owners. `refs` counts the dataset_images rows (any revision) whose blob_key is `storage_key`.
CREATE TABLE dataset_blobs (
  owner_key text NOT NULL,
  sha256 text NOT NULL,
  storage_key text NOT NULL UNIQUE,
  bytes bigint NOT NULL,
  refs integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner_key, sha256)
);
