/**
 * Drizzle table definitions. Nested shapes of the spec (meta, dates, stats) are assembled by
 * presenters; columns stay flat. Each module adds its tables here and a migration under
 * ./migrations (plain SQL, applied in file-name order by ./migrate.ts).
 */
import { bigint, bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { DatasetReport, StoredDatasetStats } from '@sightline/contracts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    passwordHash: text('password_hash'),
    emailVerifiedAt: ts('email_verified_at'),
    image: text('image').notNull(),
    plan: text('plan').notNull().default('free'),
    roles: text('roles').array().notNull().default([]),
    paymentCustomerId: text('payment_customer_id'),
    walletBalance: bigint('wallet_balance', { mode: 'number' }).notNull().default(0),
    walletHeld: bigint('wallet_held', { mode: 'number' }).notNull().default(0),
    onboard: boolean('onboard').notNull().default(false),
    feedbackRating: integer('feedback_rating'),
    feedbackReview: text('feedback_review'),
    feedbackCreatedAt: ts('feedback_created_at'),
    feedbackUpdatedAt: ts('feedback_updated_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
    lastLoginAt: ts('last_login_at'),
    /** set by an admin: no sign-in, sessions and API keys stop working (migration 0015) */
    disabledAt: ts('disabled_at'),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_username_key').on(t.username)],
);

export const authIdentities = pgTable(
  'auth_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('auth_identities_user_idx').on(t.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const mailTokens = pgTable(
  'mail_tokens',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(), // verify | reset
    email: text('email').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('mail_tokens_hash_key').on(t.tokenHash)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    /** a run key's reach (migration 0021, ADR 0023): only these items; null = all of the user's rights */
    scope: jsonb('scope').$type<{ works: string[]; reads: string[] }>(),
  },
  (t) => [uniqueIndex('api_keys_secret_hash_key').on(t.secretHash), index('api_keys_user_idx').on(t.userId)],
);

export const settings = pgTable('settings', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  roboflowUploadAllWeights: boolean('roboflow_upload_all_weights').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const featureFlags = pgTable('feature_flags', {
  name: text('name').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: text('updated_by'),
});

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: text('id').primaryKey(),
    userId: text('user_id'),
    name: text('name').notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('analytics_events_user_idx').on(t.userId, t.createdAt), index('analytics_events_name_idx').on(t.name, t.createdAt)],
);

export const presence = pgTable('presence', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  connectedAt: ts('connected_at'),
  lastSeenAt: ts('last_seen_at'),
  connections: integer('connections').notNull().default(0),
  platform: text('platform').notNull().default('web'),
});

/** Signed-out sockets of the web app: the spec's presence/guests (migration 0024). */
export const presenceGuests = pgTable(
  'presence_guests',
  {
    id: text('id').primaryKey(),
    connectedAt: ts('connected_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    platform: text('platform').notNull().default('web'),
  },
  (t) => [index('presence_guests_seen_idx').on(t.lastSeenAt)],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    error: text('error'),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt)],
);

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').notNull().default('queued'), // queued | running | done | failed
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAt: ts('run_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    /** A fresh token per claim (migration 0023, ADR 0025): the holder's writes name it, so a lost lease cannot write. */
    leaseToken: text('lease_token'),
    lastError: text('last_error'),
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    dedupeKey: text('dedupe_key'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('jobs_claim_idx').on(t.queue, t.status, t.runAt), uniqueIndex('jobs_dedupe_key').on(t.dedupeKey)],
);

export const blobs = pgTable('blob_usage', {
  key: text('key').primaryKey(),
  userId: text('user_id'),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const projects = pgTable('projects', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  teamId: text('team_id'),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  privacy: text('privacy').$type<'private' | 'unlisted' | 'public'>().notNull().default('private'),
  imageKey: text('image_key'),
  imageBytes: bigint('image_bytes', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  archivedAt: ts('archived_at'),
  deletedAt: ts('deleted_at'),
});

export const datasets = pgTable('datasets', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  teamId: text('team_id'),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  privacy: text('privacy').$type<'private' | 'unlisted' | 'public'>().notNull().default('private'),
  provider: text('provider').notNull().default('hub'),
  task: text('task').notNull().default('detect'),
  status: text('status').notNull().default('Initiating'),
  storageKey: text('storage_key'),
  filename: text('filename'),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  imageKey: text('image_key'),
  stats: jsonb('stats').$type<StoredDatasetStats>(),
  report: jsonb('report').$type<DatasetReport>(),
  error: text('error'),
  uploadJob: text('upload_job'),
  roboflow: jsonb('roboflow').$type<Record<string, unknown>>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  uploadedAt: ts('uploaded_at'),
  processedAt: ts('processed_at'),
  failedAt: ts('failed_at'),
  archivedAt: ts('archived_at'),
  deletedAt: ts('deleted_at'),
});

export const models = pgTable('models', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  projectId: text('project_id'),
  teamId: text('team_id'),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  privacy: text('privacy').$type<'private' | 'unlisted' | 'public'>().notNull().default('private'),
  order: integer('sort_order'),
  task: text('task'),
  names: jsonb('names').$type<string[]>().notNull().default([]),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  datasetId: text('dataset_id'),
  datasetName: text('dataset_name'),
  architectureId: text('architecture_id'),
  architectureName: text('architecture_name'),
  parentId: text('parent_id'),
  parentName: text('parent_name'),
  parentPath: text('parent_path'),
  parentUrl: text('parent_url'),
  hubStatus: text('hub_status').$type<'new' | 'training' | 'trained'>().notNull().default('new'),
  bestMetrics: jsonb('best_metrics').$type<Record<string, number>>(),
  epochsDone: integer('epochs_done').notNull().default(0),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  archivedAt: ts('archived_at'),
  deletedAt: ts('deleted_at'),
  deletedWithProject: boolean('deleted_with_project').notNull().default(false),
  trainStart: ts('train_start'),
  trainEnd: ts('train_end'),
  trainHeartbeat: ts('train_heartbeat'),
  trainInitialized: ts('train_initialized'),
  /** created: made here to be trained; uploaded: weights trained elsewhere (migration 0020, ADR 0022) */
  origin: text('origin').$type<'created' | 'uploaded'>().notNull().default('created'),
});

export const modelFiles = pgTable(
  'model_files',
  {
    modelId: text('model_id').notNull(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    blobKey: text('blob_key').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    epoch: integer('epoch'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.kind] })],
);

export const modelMetrics = pgTable(
  'model_metrics',
  {
    modelId: text('model_id').notNull(),
    epoch: integer('epoch').notNull(),
    metrics: jsonb('metrics').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.epoch] })],
);

export const datasetImages = pgTable('dataset_images', {
  id: text('id').primaryKey(),
  datasetId: text('dataset_id').notNull(),
  split: text('split').notNull(),
  name: text('name').notNull(),
  entryName: text('entry_name').notNull(),
  width: integer('width'),
  height: integer('height'),
  format: text('format'),
  className: text('class_name'),
  labels: jsonb('labels').$type<number[][]>().notNull().default([]),
  source: jsonb('source').$type<{ dataOffset: number; compressedSize: number; uncompressedSize: number; compressionMethod: number; format: string }>().notNull(),
  thumbKey: text('thumb_key'),
});

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  datasetId: text('dataset_id'),
  path: text('path').notNull(),
  filename: text('filename').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  offset: bigint('offset_bytes', { mode: 'number' }).notNull().default(0),
  status: text('status').notNull().default('uploading'),
  error: text('error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  completedAt: ts('completed_at'),
});

/** Training run state reported by the user's ultralytics client (migration 0004_training). */
export const modelTraining = pgTable('model_training', {
  modelId: text('model_id').primaryKey(),
  protocol: text('protocol').$type<'hub' | 'platform'>().notNull(),
  runId: text('run_id'),
  agent: text('agent'),
  agentId: text('agent_id'),
  outcome: text('outcome').$type<'queued' | 'running' | 'completed' | 'cancelled' | 'failed' | 'timeout'>().notNull().default('running'),
  /** Why a run failed or timed out (the agent's or client's words; ADR 0020). */
  error: text('error'),
  endedAt: ts('ended_at'),
  cancelRequestedAt: ts('cancel_requested_at'),
  cancelRequestedBy: text('cancel_requested_by'),
  staleAt: ts('stale_at'),
  lastEventAt: ts('last_event_at'),
  epochsTotal: integer('epochs_total'),
  bestEpoch: integer('best_epoch'),
  bestFitness: doublePrecision('best_fitness'),
  finalMetrics: jsonb('final_metrics').$type<Record<string, unknown>>(),
  results: jsonb('results').$type<Record<string, unknown>>(),
  plots: jsonb('plots').$type<unknown[]>(),
  environment: jsonb('environment').$type<Record<string, unknown>>(),
  trainArgs: jsonb('train_args').$type<Record<string, unknown>>(),
  system: jsonb('system').$type<Record<string, unknown>>(),
  modelInfo: jsonb('model_info').$type<Record<string, unknown>>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const modelConsole = pgTable(
  'model_console',
  {
    modelId: text('model_id').notNull(),
    chunkId: integer('chunk_id').notNull(),
    content: text('content').notNull(),
    lineCount: integer('line_count').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.chunkId] })],
);

export const inferenceUsage = pgTable(
  'inference_usage',
  {
    userId: text('user_id').notNull(),
    apiKeyId: text('api_key_id').notNull().default(''),
    bucket: text('bucket').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.apiKeyId, t.bucket] })],
);

export const inferenceEndpoints = pgTable('inference_endpoints', {
  id: text('id').primaryKey(),
  modelId: text('model_id').notNull(),
  userId: text('user_id').notNull(),
  status: text('status').notNull().default('starting'),
  error: text('error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  stoppedAt: ts('stopped_at'),
});

/** Teams (migration 0007_teams). */
export const teams = pgTable('teams', {
  id: text('id').primaryKey(),
  ownerId: text('owner_id').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  imagePath: text('image_path'),
  imageBytes: bigint('image_bytes', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

export type TeamRole = 'owner' | 'admin' | 'member' | 'viewer';

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: text('team_id').notNull(),
    userId: text('user_id').notNull(),
    role: text('role').$type<TeamRole>().notNull(),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

export const teamInvites = pgTable('team_invites', {
  id: text('id').primaryKey(),
  teamId: text('team_id').notNull(),
  email: text('email').notNull(),
  role: text('role').$type<Exclude<TeamRole, 'owner'>>().notNull(),
  invitedBy: text('invited_by').notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
  acceptedAt: ts('accepted_at'),
  rejectedAt: ts('rejected_at'),
  cancelledAt: ts('cancelled_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// ---- GPU agents, agent jobs and model exports (migration 0012)

export const gpuTypes = pgTable('gpu_types', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  match: text('match').notNull(),
  hourlyRateMicro: bigint('hourly_rate_micro', { mode: 'number' }).notNull(),
  imagesPerSecond: doublePrecision('images_per_second').notNull().default(200),
  enabled: boolean('enabled').notNull().default(true),
  /** 'gpu': matches agents by GPU name; 'cpu': agents without a GPU (migration 0018, ADR 0021). */
  device: text('device').$type<'gpu' | 'cpu'>().notNull().default('gpu'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const agents = pgTable('agents', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ownerUserId: text('owner_user_id'),
  createdBy: text('created_by').notNull(),
  tokenHash: text('token_hash').notNull(),
  tokenPrefix: text('token_prefix').notNull(),
  hostname: text('hostname'),
  gpuName: text('gpu_name'),
  gpuMemoryMb: integer('gpu_memory_mb'),
  gpuCount: integer('gpu_count').notNull().default(0),
  cpu: text('cpu'),
  ultralyticsVersion: text('ultralytics_version'),
  /** The agent's probe: its ultralytics resolves `ul://` through the Platform protocol (null: not probed). */
  platformProtocol: boolean('platform_protocol'),
  agentVersion: text('agent_version'),
  gpuTypeId: text('gpu_type_id'),
  registeredAt: ts('registered_at'),
  lastHeartbeatAt: ts('last_heartbeat_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  revokedAt: ts('revoked_at'),
  /** The server's built-in export worker (ADR 0022): takes export jobs only. */
  builtin: boolean('builtin').notNull().default(false),
});

export type AgentJobStatus = 'queued' | 'claimed' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export const agentJobs = pgTable('agent_jobs', {
  id: text('id').primaryKey(),
  kind: text('kind').$type<'train' | 'export'>().notNull(),
  userId: text('user_id').notNull(),
  modelId: text('model_id').notNull(),
  exportId: text('export_id'),
  gpuTypeId: text('gpu_type_id'),
  status: text('status').$type<AgentJobStatus>().notNull().default('queued'),
  agentId: text('agent_id'),
  args: jsonb('args').$type<Record<string, unknown>>().notNull().default({}),
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull().default(1),
  runKeyId: text('run_key_id'),
  leaseUntil: ts('lease_until'),
  heartbeatAt: ts('heartbeat_at'),
  cancelRequestedAt: ts('cancel_requested_at'),
  error: text('error'),
  exitCode: integer('exit_code'),
  charged: boolean('charged').notNull().default(false),
  epochs: integer('epochs'),
  pricePerEpochMicro: bigint('price_per_epoch_micro', { mode: 'number' }),
  holdMicro: bigint('hold_micro', { mode: 'number' }).notNull().default(0),
  settledMicro: bigint('settled_micro', { mode: 'number' }).notNull().default(0),
  epochsSettled: integer('epochs_settled').notNull().default(0),
  holdId: text('hold_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  claimedAt: ts('claimed_at'),
  startedAt: ts('started_at'),
  finishedAt: ts('finished_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const agentJobLogs = pgTable(
  'agent_job_logs',
  {
    jobId: text('job_id').notNull(),
    seq: integer('seq').notNull(),
    content: text('content').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);

export const modelExports = pgTable('model_exports', {
  id: text('id').primaryKey(),
  modelId: text('model_id').notNull(),
  userId: text('user_id').notNull(),
  format: text('format').notNull(),
  options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
  status: text('status').$type<AgentJobStatus>().notNull().default('queued'),
  jobId: text('job_id'),
  auto: boolean('auto').notNull().default(false),
  fileName: text('file_name'),
  blobKey: text('blob_key'),
  bytes: bigint('bytes', { mode: 'number' }),
  error: text('error'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
});

/** Roboflow integration (migration 0008_integrations). Keys are AES-256-GCM ciphertext. */
export const integrations = pgTable(
  'integrations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    type: text('type').$type<'roboflow'>().notNull().default('roboflow'),
    workspace: text('workspace').notNull(),
    workspaceName: text('workspace_name').notNull(),
    apiKeyEnc: text('api_key_enc').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_user_workspace_key').on(t.userId, t.type, t.workspace)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    collection: text('collection').$type<'ext_roboflow'>().notNull().default('ext_roboflow'),
    ref: text('ref').notNull(),
    apiKeyEnc: text('api_key_enc'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_user_ref_key').on(t.userId, t.collection, t.ref)],
);

export const roboflowImports = pgTable(
  'roboflow_imports',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    source: text('source').$type<'workspace' | 'universe'>().notNull(),
    workspace: text('workspace').notNull(),
    project: text('project').notNull(),
    version: integer('version').notNull(),
    format: text('format').notNull(),
    status: text('status').$type<'queued' | 'exporting' | 'downloading' | 'imported' | 'failed' | 'cancelled'>().notNull().default('queued'),
    phase: text('phase'),
    done: bigint('done', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    errorCode: text('error_code'),
    error: text('error'),
    datasetId: text('dataset_id'),
    cancelRequestedAt: ts('cancel_requested_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [uniqueIndex('roboflow_imports_version_key').on(t.userId, t.workspace, t.project, t.version)],
);

// ---- plans, billing and the wallet ledger (migration 0006, issue 12)

export const planLimits = pgTable('plan_limits', {
  plan: text('plan').primaryKey(),
  storageBytes: bigint('storage_bytes', { mode: 'number' }),
  models: integer('models'),
  inferencePerHour: integer('inference_per_hour'),
  inferencePerMonth: integer('inference_per_month'),
  cloudRunsConcurrent: integer('cloud_runs_concurrent'),
  cloudTraining: boolean('cloud_training'),
  dedicatedInference: boolean('dedicated_inference'),
  teams: boolean('teams'),
  walletTopUp: boolean('wallet_top_up'),
  updatedBy: text('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const billingSubscriptions = pgTable('billing_subscriptions', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  source: text('source').$type<'stripe' | 'admin'>().notNull(),
  plan: text('plan').notNull(),
  status: text('status').notNull(),
  interval: text('interval'),
  customerId: text('customer_id'),
  priceId: text('price_id'),
  currentPeriodEnd: ts('current_period_end'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  stripeEventAt: bigint('stripe_event_at', { mode: 'number' }).notNull().default(0),
  setBy: text('set_by'),
  reason: text('reason'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  outcome: text('outcome').notNull(),
  userId: text('user_id'),
  detail: text('detail'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const walletEntries = pgTable('wallet_entries', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  kind: text('kind').$type<'top_up' | 'admin_credit' | 'hold' | 'settle' | 'release'>().notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  held: bigint('held', { mode: 'number' }).notNull().default(0),
  charged: bigint('charged', { mode: 'number' }).notNull().default(0),
  balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
  heldAfter: bigint('held_after', { mode: 'number' }).notNull(),
  idempotencyKey: text('idempotency_key').notNull(),
  holdId: text('hold_id'),
  paymentId: text('payment_id'),
  modelId: text('model_id'),
  epoch: integer('epoch'),
  actorId: text('actor_id'),
  reason: text('reason'),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** insertion order (migration 0006b) */
  seq: bigserial('seq', { mode: 'number' }).notNull(),
});

export const billingRecords = pgTable('billing_records', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  type: text('type').$type<'train' | 'subscription'>().notNull(),
  modelId: text('model_id'),
  holdId: text('hold_id'),
  subscriptionId: text('subscription_id'),
  plan: text('plan').notNull(),
  status: text('status').notNull(),
  held: bigint('held', { mode: 'number' }).notNull().default(0),
  charged: bigint('charged', { mode: 'number' }).notNull().default(0),
  released: bigint('released', { mode: 'number' }).notNull().default(0),
  startedAt: ts('started_at').notNull(),
  endedAt: ts('ended_at'),
});

/** Sign-in, mail and API-key throttling per kind and subject (migration 0014_hardening). */
export const authThrottle = pgTable(
  'auth_throttle',
  {
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull().default(0),
    total: integer('total').notNull().default(0),
    strikes: integer('strikes').notNull().default(0),
    blockedUntil: ts('blocked_until'),
    lastAt: ts('last_at').notNull(),
    lastIp: text('last_ip'),
  },
  (t) => [primaryKey({ columns: [t.kind, t.subject] })],
);

/** Bytes promised to uploads in flight (migration 0014_hardening). */
export const storageReservations = pgTable('storage_reservations', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  purpose: text('purpose').notNull(),
  createdAt: ts('created_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
});

/** Outgoing webhooks (migration 0016, issue 15). */
export const webhooks = pgTable('webhooks', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  url: text('url').notNull(),
  description: text('description'),
  events: text('events').array().notNull(),
  scope: text('scope').$type<'own' | 'instance'>().notNull().default('own'),
  secretEnc: text('secret_enc').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: text('id').primaryKey(),
  webhookId: text('webhook_id').notNull(),
  event: text('event').notNull(),
  eventId: text('event_id').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  status: text('status').$type<'pending' | 'retrying' | 'succeeded' | 'failed'>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  statusCode: integer('status_code'),
  responseMs: integer('response_ms'),
  error: text('error'),
  redeliveryOf: text('redelivery_of'),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastAttemptAt: ts('last_attempt_at'),
  nextAttemptAt: ts('next_attempt_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: text('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    at: ts('at').notNull(),
    statusCode: integer('status_code'),
    responseMs: integer('response_ms'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
export const webhookSettings = pgTable('webhook_settings', {
  id: integer('id').primaryKey().default(1),
  allowPrivateUrls: boolean('allow_private_urls').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: text('updated_by'),
});

/** Closed-bucket event counts for the admin charts (migration 0015b): per day or ISO week and name; '~active' and '~done' rows. */
export const analyticsRollup = pgTable(
  'analytics_rollup',
  {
    period: text('period').$type<'day' | 'week'>().notNull(),
    bucket: text('bucket').notNull(),
    name: text('name').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.bucket, t.name] })],
);

/** Append-only audit log (migration 0015, issue 15): a trigger refuses UPDATE and DELETE. */
export const auditLog = pgTable('audit_log', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  id: text('id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  action: text('action').notNull(),
  actorId: text('actor_id'),
  actorLabel: text('actor_label'),
  targetType: text('target_type'),
  targetId: text('target_id'),
  targetLabel: text('target_label'),
  userId: text('user_id'),
  outcome: text('outcome').$type<'success' | 'failure'>().notNull().default('success'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
});

/** Evaluations of a model on a dataset split (migration 0027, ADR 0035): the job's state and, once completed, its result. */
export const evaluations = pgTable(
  'evaluations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    modelId: text('model_id').notNull(),
    datasetId: text('dataset_id').notNull(),
    split: text('split').$type<'train' | 'val' | 'test'>().notNull(),
    task: text('task').notNull(),
    status: text('status').$type<'queued' | 'running' | 'completed' | 'failed' | 'cancelled'>().notNull().default('queued'),
    modelHash: text('model_hash').notNull(),
    datasetHash: text('dataset_hash').notNull(),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    classMap: jsonb('class_map').$type<{ pairs: Array<{ datasetClass: number; modelClass: number; name: string }>; unmappedDataset: string[]; unmappedModel: string[]; skippedLabels: number }>(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: text('error'),
    cancelRequestedAt: ts('cancel_requested_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('evaluations_model_idx').on(t.modelId, t.createdAt), index('evaluations_reuse_idx').on(t.modelId, t.datasetId, t.split, t.modelHash, t.datasetHash)],
);

/** The most confident mistakes of an evaluation per kind (fp | fn | wrong) and class (migration 0027). */
export const evaluationMistakes = pgTable(
  'evaluation_mistakes',
  {
    evaluationId: text('evaluation_id').notNull(),
    kind: text('kind').$type<'fp' | 'fn' | 'wrong'>().notNull(),
    classId: integer('class_id').notNull(),
    rank: integer('rank').notNull(),
    imageId: text('image_id').notNull(),
    confidence: doublePrecision('confidence').notNull(),
    prediction: jsonb('prediction').$type<{ classId: number; box: [number, number, number, number]; confidence?: number; polygon?: number[] }>(),
    label: jsonb('label').$type<{ classId: number; box: [number, number, number, number]; polygon?: number[] }>(),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.kind, t.classId, t.rank] })],
);
