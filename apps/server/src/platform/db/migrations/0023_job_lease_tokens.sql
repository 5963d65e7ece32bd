-- Fencing for leased jobs (ADR 0025): every claim writes a fresh lease token, and every write of the
-- holder (progress, heartbeat, completion, failure, the job's results) names it in the statement or
-- transaction that writes, so an instance that lost its lease (stalled past it, then woke up) is refused.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS lease_token text;
