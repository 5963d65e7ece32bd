CREATE TABLE dataset_images (
  id text PRIMARY KEY,
  dataset_id text NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  split text NOT NULL,
  name text NOT NULL,
  entry_name text NOT NULL,
  width integer,
  height integer,
  format text,
  class_name text,
  labels jsonb NOT NULL DEFAULT '[]',
  source jsonb NOT NULL,
  thumb_key text
);
CREATE INDEX dataset_images_browse_idx ON dataset_images (dataset_id, split, name);

CREATE TABLE uploads (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  dataset_id text,
  path text NOT NULL,
  filename text NOT NULL,
  bytes bigint NOT NULL,
  offset_bytes bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'uploading',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX uploads_user_idx ON uploads (user_id, created_at DESC);
