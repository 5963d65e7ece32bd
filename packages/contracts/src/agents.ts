import { z } from 'zod';
import { safeName } from './names.js';

/**
 * GPU agents (`@sightline/agent`) and their jobs. The agent protocol is pull-based: the agent
 * registers, heartbeats and long-polls `/v1/agents/*` with its token in `x-agent-token`; the hub
 * never connects to the GPU host.
 */

export const AGENT_TOKEN_HEADER = 'x-agent-token';
/** Agent tokens: `sla_` + 40 lowercase hex; only the sha256 is stored. */
export const agentTokenPattern = /^sla_[0-9a-f]{40}$/;

export const agentJobStatusSchema = z.enum(['queued', 'claimed', 'running', 'succeeded', 'failed', 'cancelled']);
export type AgentJobStatus = z.infer<typeof agentJobStatusSchema>;
export const agentJobKindSchema = z.enum(['train', 'export']);
export const FINISHED_JOB_STATUSES: readonly AgentJobStatus[] = ['succeeded', 'failed', 'cancelled'];

// ---- wire protocol (agent → hub)

export const gpuInfoSchema = z.object({ name: safeName(z.string().max(200)), memoryMb: z.number().int().min(0).max(10_000_000) });
export const agentRegisterBody = z.object({
  hostname: safeName(z.string().max(255)),
  gpus: z.array(gpuInfoSchema).max(64).default([]),
  cpu: z.string().max(255).nullish(),
  cpuCount: z.number().int().min(0).max(100_000).nullish(),
  ultralyticsVersion: z.string().max(64).nullish(),
  /**
   * The agent's probe of its ultralytics (ADR 0021): true when it resolves `ul://` datasets through
   * the Platform protocol at ULTRALYTICS_PLATFORM_URL, false when it does not; absent when the agent
   * could not probe (then the version decides: >= PLATFORM_PROTOCOL_MIN_VERSION).
   */
  platformProtocol: z.boolean().nullish(),
  agentVersion: z.string().max(64).nullish(),
  /** Jobs the agent had started before it last stopped (from its state file). */
  unfinished: z.array(z.string().max(40)).max(100).default([]),
});
export const agentRegisterResponse = z.object({
  data: z.object({
    agentId: z.string(),
    name: z.string(),
    heartbeatMs: z.number(),
    leaseMs: z.number(),
    gpuType: z.string().nullable(),
    /** What became of the reported unfinished jobs. */
    recovered: z.array(z.object({ id: z.string(), status: agentJobStatusSchema })),
  }),
});

export const agentHeartbeatBody = z.object({ jobs: z.array(z.string().max(40)).max(100).default([]) });
export const agentHeartbeatResponse = z.object({ data: z.object({ cancel: z.array(z.string()), unknown: z.array(z.string()) }) });

/** A job as handed to the agent: what to run (`yolo <args>`), with which environment, and what to upload. */
export const claimedJobSchema = z.object({
  id: z.string(),
  kind: agentJobKindSchema,
  /** ultralytics CLI words after `yolo`, e.g. ['train', 'model=yolo11n.pt', 'epochs=10', ...] */
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  /** Files to download into the working folder first (relative name → URL on the hub). */
  inputs: z.array(z.object({ name: z.string(), url: z.string() })),
  /** For exports: the file or folder `yolo export` writes, to upload as the artifact. */
  artifact: z.string().nullable(),
  leaseMs: z.number(),
});
export type ClaimedJob = z.infer<typeof claimedJobSchema>;
export const agentClaimQuery = z.object({ waitMs: z.coerce.number().int().min(0).max(60_000).default(25_000) });
export const agentClaimResponse = z.object({ data: claimedJobSchema.nullable() });

export const agentLogBody = z.object({ seq: z.number().int().min(0).max(10_000_000), content: z.string().max(1024 * 1024) });
export const agentJobAck = z.object({ data: z.object({ cancel: z.boolean() }) });
export const agentFinishBody = z.object({
  status: z.enum(['succeeded', 'failed', 'cancelled']),
  exitCode: z.number().int().nullish(),
  signal: z.string().max(32).nullish(),
  error: z.string().max(4000).nullish(),
});

// ---- people-facing views

/** The first ultralytics release that trains from `ul://` data over the Platform protocol (ADR 0021). */
export const PLATFORM_PROTOCOL_MIN_VERSION = '8.4.115';
/** 'gpu': a type matches agents whose GPU name contains `match`; 'cpu': agents without a GPU ('*' any CPU). */
export const deviceKindSchema = z.enum(['gpu', 'cpu']);
export type DeviceKind = z.infer<typeof deviceKindSchema>;

export const gpuTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  device: deviceKindSchema,
  match: z.string(),
  hourlyRateMicro: z.number(),
  imagesPerSecond: z.number(),
  enabled: z.boolean(),
  /** agents of this type online now (shared pool) */
  online: z.number(),
});
export type GpuType = z.infer<typeof gpuTypeSchema>;
export const gpuTypeBody = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lowercase letters, digits and -'),
  name: safeName(z.string().min(1).max(100)),
  device: deviceKindSchema.default('gpu'),
  match: z.string().min(1).max(100),
  hourlyRateMicro: z.number().int().min(0).max(1_000_000_000),
  imagesPerSecond: z.number().positive().max(1_000_000).default(200),
  enabled: z.boolean().default(true),
});

export const agentJobSummarySchema = z.object({
  id: z.string(),
  kind: agentJobKindSchema,
  status: agentJobStatusSchema,
  modelId: z.string(),
  /** The model's name where a person reads the list (the admin's queued jobs); absent elsewhere. */
  modelName: z.string().nullable().optional(),
  exportId: z.string().nullable(),
  userId: z.string(),
  agentId: z.string().nullable(),
  gpuType: z.string().nullable(),
  attempts: z.number(),
  error: z.string().nullable(),
  exitCode: z.number().nullable(),
  created: z.string(),
  started: z.string().nullable(),
  finished: z.string().nullable(),
  cancelRequested: z.boolean(),
});
export type AgentJobSummary = z.infer<typeof agentJobSummarySchema>;

/** What an agent can run, and why not (ADR 0021). */
export const agentCapabilitiesSchema = z.object({
  /** what it trains on: a GPU, or the CPU (no GPU found) */
  device: deviceKindSchema,
  /** its ultralytics reads `ul://` data (the Platform protocol): needed for cloud training */
  platformProtocol: z.boolean(),
  /** takes cloud training jobs (shared pool, Platform protocol, an enabled device type matches) */
  train: z.boolean(),
  /** takes export jobs (any agent with ultralytics) */
  export: z.boolean(),
  /** why it cannot train or run anything; null when it can do both */
  reason: z.string().nullable(),
});
export type AgentCapabilities = z.infer<typeof agentCapabilitiesSchema>;

export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  shared: z.boolean(),
  ownerUserId: z.string().nullable(),
  tokenPrefix: z.string(),
  online: z.boolean(),
  hostname: z.string().nullable(),
  gpu: z.object({ name: z.string(), memoryMb: z.number().nullable(), count: z.number() }).nullable(),
  gpuType: z.string().nullable(),
  cpu: z.string().nullable(),
  ultralyticsVersion: z.string().nullable(),
  agentVersion: z.string().nullable(),
  capabilities: agentCapabilitiesSchema,
  lastHeartbeat: z.string().nullable(),
  created: z.string(),
  revoked: z.string().nullable(),
  currentJob: agentJobSummarySchema.nullable(),
});
export type Agent = z.infer<typeof agentSchema>;
export const createAgentBody = z.object({ name: safeName(z.string().trim().min(1).max(100)) });
/** The token is shown once. */
export const createdAgentSchema = z.object({ agent: agentSchema, token: z.string() });

export const jobLogSchema = z.object({ lines: z.array(z.string()), next: z.number() });

// ---- cloud training

export const cloudTrainingBody = z.object({
  gpuType: z.string().max(40),
  mode: z.enum(['epochs', 'timed']).default('epochs'),
  epochs: z.number().int().min(1).max(10_000).default(100),
  /** Timed mode: hours of training (ultralytics `time=`). */
  hours: z.number().min(0.05).max(168).nullish(),
  /** ultralytics weights to start from, e.g. yolo11n.pt (default: the model's architecture). */
  model: z.string().max(200).nullish(),
});
export type CloudTrainingBody = z.infer<typeof cloudTrainingBody>;
export const cloudEstimateSchema = z.object({
  gpuType: z.string(),
  mode: z.enum(['epochs', 'timed']),
  epochs: z.number(),
  hours: z.number(),
  estimateMicro: z.number(),
  pricePerEpochMicro: z.number(),
  walletMicro: z.number(),
  canStart: z.boolean(),
  reason: z.string().nullable(),
});
export type CloudEstimate = z.infer<typeof cloudEstimateSchema>;
/** Cost so far of a model's cloud run (the model page's cost line). */
export const cloudRunSchema = z.object({
  job: agentJobSummarySchema,
  holdMicro: z.number(),
  settledMicro: z.number(),
  epochsSettled: z.number(),
  epochs: z.number().nullable(),
  pricePerEpochMicro: z.number().nullable(),
  charged: z.boolean(),
});
export type CloudRun = z.infer<typeof cloudRunSchema>;
/** Below this wallet balance cloud training is refused (product notes: top-up starts at $5). */
export const CLOUD_MIN_WALLET_MICRO = 5_000_000;
