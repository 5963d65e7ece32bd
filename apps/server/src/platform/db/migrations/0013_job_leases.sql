-- Job leases name their holder (host:pid:instance), so an instance starting on the same host can tell
-- that the process holding a job is gone and take the job back at once instead of waiting for the lease.
ALTER TABLE jobs ADD COLUMN locked_by text;
CREATE INDEX jobs_running_idx ON jobs (status, locked_by) WHERE status = 'running';
