-- Evaluations (ADR 0035): a model's ONNX file scored on a dataset split in the server. A row is the
-- job's state and, once completed, its result; `model_hash` + `dataset_hash` name the files it ran
-- on, so asking again for the same model × dataset × split with unchanged files returns this row.
CREATE TABLE evaluations (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  model_id text NOT NULL REFERENCES models (id) ON DELETE CASCADE,
  dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  split text NOT NULL,
  task text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  model_hash text NOT NULL,
  dataset_hash text NOT NULL,
  done integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  class_map jsonb,
  result jsonb,
  error text,
  cancel_requested_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX evaluations_model_idx ON evaluations (model_id, created_at DESC);
CREATE INDEX evaluations_reuse_idx ON evaluations (model_id, dataset_id, split, model_hash, dataset_hash);

-- The images that matter: per evaluation, kind (fp | fn | wrong) and class, the most confident
-- mistakes only (bounded when written), each with the prediction and the label involved.
CREATE TABLE evaluation_mistakes (
  evaluation_id text NOT NULL REFERENCES evaluations (id) ON DELETE CASCADE,
  kind text NOT NULL,
  class_id integer NOT NULL,
  rank integer NOT NULL,
  image_id text NOT NULL,
  confidence double precision NOT NULL,
  prediction jsonb,
  label jsonb,
  PRIMARY KEY (evaluation_id, kind, class_id, rank)
);
