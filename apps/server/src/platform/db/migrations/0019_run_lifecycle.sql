-- The run lifecycle of ADR 0020: one state for client and cloud runs. A run is queued (a cloud run
-- waiting for an agent), running, or ended: completed, cancelled (Stopped), failed (with the reason
-- the agent or client gave) or timeout (silent past the spec's windows; a late event revives it).
ALTER TABLE model_training DROP CONSTRAINT IF EXISTS model_training_outcome_check;
ALTER TABLE model_training ADD CONSTRAINT model_training_outcome_check
  CHECK (outcome IN ('queued', 'running', 'completed', 'cancelled', 'failed', 'timeout'));
ALTER TABLE model_training ADD COLUMN error text;
ALTER TABLE model_training ADD COLUMN ended_at timestamptz;
