-- What an agent can run (ADR 0021): whether its ultralytics speaks the Platform protocol (resolves
-- `ul://` datasets against the hub; probed by the agent at start, NULL when it could not probe: the
-- version decides then), and CPU as a device type an admin can enable for training.

ALTER TABLE agents ADD COLUMN IF NOT EXISTS platform_protocol boolean;
ALTER TABLE gpu_types ADD COLUMN IF NOT EXISTS device text NOT NULL DEFAULT 'gpu';
