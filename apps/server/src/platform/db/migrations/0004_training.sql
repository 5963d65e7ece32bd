-- Training runs reported by the user's own ultralytics client (legacy HUB and Platform protocols).
-- One row per model: each Platform run creates its own model, and a HUB model is trained (or resumed) as one run.
CREATE TABLE model_training (
  model_id text PRIMARY KEY REFERENCES models(id) ON DELETE CASCADE,
  protocol text NOT NULL CHECK (protocol IN ('hub', 'platform')),
  run_id text,
  agent text,
  agent_id text,
  outcome text NOT NULL DEFAULT 'running' CHECK (outcome IN ('running', 'completed', 'cancelled')),
  cancel_requested_at timestamptz,
  cancel_requested_by text,
  stale_at timestamptz,
  last_event_at timestamptz,
  epochs_total integer,
  best_epoch integer,
  best_fitness double precision,
  final_metrics jsonb,
  results jsonb,
  plots jsonb,
  environment jsonb,
  train_args jsonb,
  system jsonb,
  model_info jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX model_training_run_key ON model_training (run_id) WHERE run_id IS NOT NULL;
-- The stale sweep looks only at runs still marked running.
CREATE INDEX model_training_running_idx ON model_training (last_event_at) WHERE outcome = 'running';

-- Console output of a run, stored per client chunk: chunks arrive out of order and after the end.
CREATE TABLE model_console (
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  chunk_id integer NOT NULL,
  content text NOT NULL,
  line_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (model_id, chunk_id)
);
