-- Keyset pages for the admin's outbox and feedback (ADR 0042): newest first, the id as tie-break, so every
-- page costs what the first does.
CREATE INDEX mail_outbox_keyset ON mail_outbox (created_at DESC, id DESC);
-- The admin's feedback list, newest update first (replaces the single-column index of migration 0015).
CREATE INDEX users_feedback_keyset ON users (feedback_updated_at DESC, id DESC) WHERE feedback_created_at IS NOT NULL;
DROP INDEX users_feedback_idx;
-- The admin's job lists (queued, running and failed jobs of both sources), newest update first.
CREATE INDEX jobs_admin_keyset ON jobs (updated_at DESC, id DESC) WHERE status IN ('queued', 'running', 'failed');
CREATE INDEX agent_jobs_admin_keyset ON agent_jobs (updated_at DESC, id DESC) WHERE status IN ('queued', 'claimed', 'running', 'failed');
