CREATE TABLE inference_usage (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  api_key_id text NOT NULL DEFAULT '',
  bucket text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, api_key_id, bucket)
);

CREATE TABLE inference_endpoints (
  id text PRIMARY KEY,
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'starting',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  stopped_at timestamptz
);
CREATE UNIQUE INDEX inference_endpoints_live_model_key ON inference_endpoints (model_id) WHERE stopped_at IS NULL;
INSERT INTO feature_flags (name, enabled) VALUES ('dedicatedInference', false) ON CONFLICT (name) DO NOTHING;
