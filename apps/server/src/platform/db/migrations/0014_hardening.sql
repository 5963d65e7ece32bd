-- Issue 16 hardening: sign-in throttling and storage reservations.

-- Failures (and mail requests) per kind and subject ('account:<email>' or 'ip:<address>'), counted in
-- a fixed window; a subject over its limit is blocked until blocked_until, longer on each strike.
-- Rows stay as the record admins read (GET /v1/admin/security/failures).
CREATE TABLE auth_throttle (
  kind text NOT NULL,
  subject text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  strikes integer NOT NULL DEFAULT 0,
  blocked_until timestamptz,
  last_at timestamptz NOT NULL,
  last_ip text,
  PRIMARY KEY (kind, subject)
);
CREATE INDEX auth_throttle_last_at_idx ON auth_throttle (last_at DESC);

-- Bytes promised to uploads in flight: counted as used until the upload settles (its item's bytes
-- are recorded) or is released; an abandoned upload's reservation stops counting at expires_at.
CREATE TABLE storage_reservations (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  bytes bigint NOT NULL,
  purpose text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX storage_reservations_user_idx ON storage_reservations (user_id, expires_at);
