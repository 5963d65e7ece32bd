-- Dataset versions (ADR 0038): a version is the dataset's edit sequence number at the moment it was
-- saved (migration 0029 keeps every image revision a version can see), with its class list and stats
-- frozen beside it. Saving is O(1): no image row is copied. Deleted versions go to the trash
-- (deleted_at) and come back from it; the number is never reused.
CREATE TABLE dataset_versions (
  id text PRIMARY KEY,
  dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  number integer NOT NULL,
  seq bigint NOT NULL,
  note text NOT NULL DEFAULT '',
  classes jsonb NOT NULL DEFAULT '[]'::jsonb,
  stats jsonb,
  images integer NOT NULL DEFAULT 0,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX dataset_versions_number_idx ON dataset_versions (dataset_id, number);

-- Lineage: the version a run trained on, on the run and on its model.
ALTER TABLE models ADD COLUMN dataset_version_id text;
ALTER TABLE model_training ADD COLUMN dataset_version_id text;
