/** Tables of modules/agents (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, boolean, doublePrecision, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

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
