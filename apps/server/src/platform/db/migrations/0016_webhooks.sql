-- Outgoing webhooks (issue 15, ADR 0016): endpoints users or admins register, one delivery per
-- event and endpoint, and its attempts (status code, response time, error). Deliveries are sent by
-- the job queue (queue `webhooks.deliver`); retries are new jobs with an exponential delay.

CREATE TABLE webhooks (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url text NOT NULL,
  description text,
  events text[] NOT NULL,
  -- own: the owner's items; instance (admins only): every item on the instance
  scope text NOT NULL DEFAULT 'own',
  -- the signing secret, AES-256-GCM sealed with a key derived from the server secret
  secret_enc text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_user_idx ON webhooks (user_id, created_at);
CREATE INDEX webhooks_instance_idx ON webhooks (scope) WHERE scope = 'instance';

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event text NOT NULL,
  event_id text NOT NULL,
  payload jsonb NOT NULL,
  -- pending | retrying | succeeded | failed
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  status_code integer,
  response_ms integer,
  error text,
  redelivery_of text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  next_attempt_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC);
CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at DESC);

CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  at timestamptz NOT NULL,
  status_code integer,
  response_ms integer,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);

-- Instance-wide webhook settings (one row): URLs resolving to loopback/private/link-local
-- addresses are refused unless an admin allows them.
CREATE TABLE webhook_settings (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  allow_private_urls boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
