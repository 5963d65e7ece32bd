-- Export and preview out of the box (ADR 0022).
-- The server's built-in export worker is an agent row of its own: it takes export jobs only.
ALTER TABLE agents ADD COLUMN IF NOT EXISTS builtin boolean NOT NULL DEFAULT false;
-- Weights trained elsewhere and uploaded have no training configuration of this hub.
ALTER TABLE models ADD COLUMN IF NOT EXISTS origin text NOT NULL DEFAULT 'created';
-- Earlier uploads: finished at creation, never started, no client run and no cloud run.
UPDATE models m SET origin = 'uploaded'
WHERE m.train_end IS NOT NULL AND m.train_start IS NULL
  AND NOT EXISTS (SELECT 1 FROM model_training r WHERE r.model_id = m.id)
  AND NOT EXISTS (SELECT 1 FROM agent_jobs j WHERE j.model_id = m.id AND j.kind = 'train');
