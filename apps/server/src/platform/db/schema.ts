/**
 * Drizzle table definitions. Nested shapes of the spec (meta, dates, stats) are assembled by
 * presenters; columns stay flat. Each module adds its tables here and a migration under
 * ./migrations (plain SQL, applied in file-name order by ./migrate.ts).
 */
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
    onboard: boolean('onboard').notNull().default(false),
    feedbackRating: integer('feedback_rating'),
    feedbackReview: text('feedback_review'),
    feedbackCreatedAt: ts('feedback_created_at'),
    feedbackUpdatedAt: ts('feedback_updated_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
    lastLoginAt: ts('last_login_at'),
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
  stats: jsonb('stats').$type<Record<string, unknown>>(),
  report: jsonb('report').$type<Record<string, unknown>>(),
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
  outcome: text('outcome').$type<'running' | 'completed' | 'cancelled'>().notNull().default('running'),
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
