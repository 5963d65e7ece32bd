-- Plans, subscriptions, Stripe webhook events, the wallet ledger and billing records (issue 12).

-- The wallet: users.wallet_balance (spendable) and users.wallet_held (on hold) are cached sums of
-- wallet_entries, written in the same transaction as each entry, under a row lock on the user.
ALTER TABLE users ADD COLUMN wallet_held bigint NOT NULL DEFAULT 0;
ALTER TABLE users ADD CONSTRAINT users_wallet_balance_nonneg CHECK (wallet_balance >= 0);
ALTER TABLE users ADD CONSTRAINT users_wallet_held_nonneg CHECK (wallet_held >= 0);

-- Admin overrides of the plan defaults (contracts PLAN_LIMITS); a null column means "default".
CREATE TABLE plan_limits (
  plan text PRIMARY KEY,
  storage_bytes bigint,
  models integer,
  inference_per_hour integer,
  inference_per_month integer,
  cloud_runs_concurrent integer,
  cloud_training boolean,
  dedicated_inference boolean,
  teams boolean,
  wallet_top_up boolean,
  updated_by text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A user's subscriptions: Stripe's (id sub_...) or set by an admin (source 'admin').
-- users.plan caches resolvePlan() over them, updated in the same transaction.
CREATE TABLE billing_subscriptions (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  source text NOT NULL,
  plan text NOT NULL,
  status text NOT NULL,
  interval text,
  customer_id text,
  price_id text,
  current_period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  -- created time of the newest Stripe event applied: older events arriving late are ignored
  stripe_event_at bigint NOT NULL DEFAULT 0,
  set_by text,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_subscriptions_user ON billing_subscriptions (user_id);

-- Every webhook delivery that passed the signature check, once per event id (idempotency).
CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  outcome text NOT NULL,
  user_id text,
  detail text,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The wallet ledger, micro-USD. amount: change of the spendable balance; held: change of money on
-- hold; charged: what a settle spent. Every entry names its cause.
CREATE TABLE wallet_entries (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('top_up', 'admin_credit', 'hold', 'settle', 'release')),
  amount bigint NOT NULL,
  held bigint NOT NULL DEFAULT 0,
  charged bigint NOT NULL DEFAULT 0,
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  held_after bigint NOT NULL CHECK (held_after >= 0),
  idempotency_key text NOT NULL,
  hold_id text,
  payment_id text,
  model_id text,
  epoch integer,
  actor_id text,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wallet_entries_idem ON wallet_entries (user_id, idempotency_key);
CREATE INDEX wallet_entries_user ON wallet_entries (user_id, created_at DESC, id DESC);
CREATE INDEX wallet_entries_model ON wallet_entries (model_id) WHERE model_id IS NOT NULL;
CREATE INDEX wallet_entries_hold ON wallet_entries (hold_id) WHERE hold_id IS NOT NULL;

-- Billing records of spec §3: a training run's hold (type train) or a subscription.
CREATE TABLE billing_records (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('train', 'subscription')),
  model_id text,
  hold_id text,
  subscription_id text,
  plan text NOT NULL,
  status text NOT NULL,
  held bigint NOT NULL DEFAULT 0,
  charged bigint NOT NULL DEFAULT 0,
  released bigint NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX billing_records_owner ON billing_records (user_id, started_at DESC);
CREATE INDEX billing_records_model ON billing_records (model_id, started_at DESC);
CREATE UNIQUE INDEX billing_records_hold ON billing_records (hold_id) WHERE hold_id IS NOT NULL;
CREATE UNIQUE INDEX billing_records_subscription ON billing_records (subscription_id) WHERE subscription_id IS NOT NULL;
