import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { ErrorCode, FINISHED_JOB_STATUSES, type AgentJobStatus } from '@sightline/contracts';
import type { z } from 'zod';
import type { agentFinishBody, agentRegisterBody, gpuTypeBody } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { newId, sha256 } from '../../platform/ids.js';
import { addListener, slot } from '../../platform/registry.js';
import { revokeApiKey } from '../api-keys/api-keys.service.js';
import { createRunKey } from '../api-keys/api-keys.scope.js';
import { allPlanLimits } from '../billing/billing.plans.js';
import { agentsRepository, type AgentJobRow, type AgentRow } from './agents.repository.js';
import { assertCanManageAgent, assertCanSeeJob } from './agents.policy.js';
import { publishModelChange } from './agents.events.js';
import { settleRun } from './agents.billing.js';
import { capabilitiesOf, matchDeviceType } from './agents.capabilities.js';
import { checkSecret } from '../auth/throttle.service.js';
import { currentAuditScope } from '../audit/audit.context.js';

/**
 * GPU agents pull work: register → heartbeat → long-poll claim → log / artifact / finish. A claimed
 * or running job holds a lease the agent's heartbeats renew; when it runs out (agent killed, host
 * gone) the sweep requeues an export (it is idempotent) or fails a training run with the reason.
 */

/**
 * What a kind of job adds to the common lifecycle: the command the agent runs, and hooks at claim,
 * end and requeue. The exports module registers `export`, cloud training `train`, each on the app's
 * ctx from its register() (so this file depends on neither).
 */
export interface JobKind {
  command(
    ctx: AppContext,
    job: AgentJobRow,
    baseUrl: string,
  ): Promise<{ args: string[]; env: Record<string, string>; inputs: Array<{ name: string; url: string }>; artifact: string | null }>;
  onClaimed?(ctx: AppContext, job: AgentJobRow): Promise<void>;
  /** Runs before the final status is written; may turn it (a success without its file is a failure). */
  onFinished?(ctx: AppContext, job: AgentJobRow, status: FinalStatus, reason: string | null): Promise<{ status: FinalStatus; error: string | null }>;
  onRequeued?(ctx: AppContext, job: AgentJobRow): Promise<void>;
  /** After the final status is written. */
  afterFinished?(ctx: AppContext, job: AgentJobRow): Promise<void>;
}
export type FinalStatus = 'succeeded' | 'failed' | 'cancelled';
/** What other modules add to agent jobs, per app (ADR 0032): kinds, sweep work, listeners of finished jobs. */
const extensions = slot('agents.jobs', () => ({
  kinds: new Map<AgentJobRow['kind'], JobKind>(),
  sweepers: [] as Array<(ctx: AppContext) => Promise<void>>,
  finishListeners: [] as Array<(ctx: AppContext, job: AgentJobRow) => Promise<void>>,
}));
/** Called after any job ends (exports: a finished training run queues its ONNX export). */
export function onJobFinished(ctx: Pick<AppContext, 'registry'>, fn: (ctx: AppContext, job: AgentJobRow) => Promise<void>) {
  addListener(ctx.registry.of(extensions).finishListeners, fn);
}
export function registerJobKind(ctx: Pick<AppContext, 'registry'>, kind: AgentJobRow['kind'], handlers: JobKind) {
  ctx.registry.of(extensions).kinds.set(kind, handlers);
}
/** Work done on every sweep (exports: queue automatic ONNX exports). */
export function onSweep(ctx: Pick<AppContext, 'registry'>, fn: (ctx: AppContext) => Promise<void>) {
  addListener(ctx.registry.of(extensions).sweepers, fn);
}
function kindOf(ctx: Pick<AppContext, 'registry'>, job: AgentJobRow): JobKind {
  const k = ctx.registry.of(extensions).kinds.get(job.kind);
  if (!k) throw new Error(`No handler for ${job.kind} jobs`);
  return k;
}

/**
 * What the exports module reads and writes of the agents' tables (its model_exports rows, the export
 * jobs, the built-in agent): the repository stays private to agents (ADR 0033).
 */
export const agentQueries = {
  exportById: agentsRepository.exportById,
  exportsOfModel: agentsRepository.exportsOfModel,
  exportsWithBlob: agentsRepository.exportsWithBlob,
  insertExport: agentsRepository.insertExport,
  updateExport: agentsRepository.updateExport,
  latestExport: agentsRepository.latestExport,
  latestTrainJob: agentsRepository.latestTrainJob,
  modelsNeedingOnnx: agentsRepository.modelsNeedingOnnx,
  onlineAgents: agentsRepository.onlineAgents,
  userPlan: agentsRepository.userPlan,
  builtinAgent: agentsRepository.builtinAgent,
  insertAgent: agentsRepository.insertAgent,
  updateAgent: agentsRepository.updateAgent,
  queuedExportJobs: agentsRepository.queuedExportJobs,
};
export type { AgentJobRow, AgentRow, ModelExportRow } from './agents.repository.js';

export const agentEvents = new EventEmitter();
agentEvents.setMaxListeners(1000);
const WAKE = 'wake';

export function leaseMs(ctx: Pick<AppContext, 'config'>) {
  return ctx.config.agentLeaseMs;
}
export function heartbeatMs(ctx: Pick<AppContext, 'config'>) {
  return Math.max(500, Math.min(15_000, Math.floor(leaseMs(ctx) / 3)));
}
/** Online = heard from within one lease. */
export function onlineSince(ctx: Pick<AppContext, 'config' | 'clock'>) {
  return new Date(ctx.clock.now().getTime() - leaseMs(ctx));
}
export function isOnline(ctx: Pick<AppContext, 'config' | 'clock'>, agent: AgentRow) {
  return !agent.revokedAt && agent.lastHeartbeatAt !== null && agent.lastHeartbeatAt > onlineSince(ctx);
}

// ---- tokens

export async function createAgent(ctx: AppContext, by: { id: string; roles: string[] }, input: { name: string; shared: boolean }) {
  if (input.shared && !by.roles.includes('admin')) throw errors.forbidden('Only admins add agents to the shared pool');
  const secret = randomBytes(20).toString('hex');
  const token = `sla_${secret}`;
  const row = await agentsRepository.insertAgent(ctx.db, {
    id: newId(),
    name: input.name,
    ownerUserId: input.shared ? null : by.id,
    createdBy: by.id,
    tokenHash: sha256(token),
    tokenPrefix: token.slice(0, 10),
    createdAt: ctx.clock.now(),
  });
  return { row, token };
}

export async function revokeAgent(ctx: AppContext, by: { id: string; roles: string[] }, id: string) {
  const row = await agentsRepository.agentById(ctx.db, id);
  if (!row) throw errors.notFound('Agent');
  assertCanManageAgent(by, row);
  if (row.revokedAt) return row;
  const updated = (await agentsRepository.updateAgent(ctx.db, id, { revokedAt: ctx.clock.now() }))!;
  // Its running work cannot report any more: hand it back now rather than waiting for the lease.
  for (const job of await agentsRepository.activeJobsOfAgent(ctx.db, id)) await loseJob(ctx, job, `The agent "${row.name}" was revoked`);
  return updated;
}

export async function agentByToken(ctx: AppContext, token: string | undefined): Promise<AgentRow> {
  if (!token) throw errors.unauthorized('Agent token required (x-agent-token)');
  // Wrong tokens count per client address (throttle.service.ts); a good one costs no extra query.
  const ip = currentAuditScope()?.request.ip ?? null;
  return checkSecret(
    ctx,
    'agenttoken',
    { ip },
    async () => {
      const row = await agentsRepository.agentByTokenHash(ctx.db, sha256(token.trim()));
      return row && !row.revokedAt ? row : null;
    },
    () => errors.unauthorized('Invalid or revoked agent token'),
  );
}

// ---- GPU types

/** The enabled device type a host matches: by GPU name, or a CPU type for a host without a GPU (ADR 0021). */
export async function matchGpuType(ctx: AppContext, host: { gpuName: string | null; cpu: string | null }) {
  return matchDeviceType(await agentsRepository.gpuTypes(ctx.db), host);
}

export async function saveGpuType(ctx: AppContext, input: z.infer<typeof gpuTypeBody>) {
  const row = await agentsRepository.upsertGpuType(ctx.db, { ...input, createdAt: ctx.clock.now() });
  // Agents already registered get re-matched so the new type is usable without a restart.
  for (const agent of await agentsRepository.listAgents(ctx.db)) {
    const typeId = await matchGpuType(ctx, agent);
    if (typeId !== agent.gpuTypeId) await agentsRepository.updateAgent(ctx.db, agent.id, { gpuTypeId: typeId });
  }
  return row;
}

export async function gpuTypesWithAvailability(ctx: AppContext) {
  const [types, online] = await Promise.all([agentsRepository.gpuTypes(ctx.db), agentsRepository.onlineAgents(ctx.db, onlineSince(ctx))]);
  // Online = could take a cloud run of this type now (shared, the Platform protocol, this type).
  return types.map((t) => ({ row: t, online: online.filter((a) => a.gpuTypeId === t.id && capabilitiesOf(a).train).length }));
}

// ---- wire protocol

export async function register(ctx: AppContext, agent: AgentRow, body: z.infer<typeof agentRegisterBody>) {
  const now = ctx.clock.now();
  const gpu = body.gpus[0] ?? null;
  const cpu = body.cpu ? `${body.cpu}${body.cpuCount ? ` × ${body.cpuCount}` : ''}` : null;
  const gpuTypeId = await matchGpuType(ctx, { gpuName: gpu?.name ?? null, cpu });
  const updated = (await agentsRepository.updateAgent(ctx.db, agent.id, {
    hostname: body.hostname,
    gpuName: gpu?.name ?? null,
    gpuMemoryMb: gpu?.memoryMb ?? null,
    gpuCount: body.gpus.length,
    cpu,
    ultralyticsVersion: body.ultralyticsVersion ?? null,
    platformProtocol: body.platformProtocol ?? null,
    agentVersion: body.agentVersion ?? null,
    gpuTypeId,
    registeredAt: now,
    lastHeartbeatAt: now,
  }))!;
  // Jobs it had started before it went down cannot be resumed by a new process: report them.
  const recovered: Array<{ id: string; status: AgentJobStatus }> = [];
  const reported = new Set(body.unfinished);
  for (const job of await agentsRepository.activeJobsOfAgent(ctx.db, agent.id)) reported.add(job.id);
  for (const job of await agentsRepository.jobsByIds(ctx.db, [...reported])) {
    // Handed back already (lease ran out while it was down): say so; another run may take it.
    if (job.agentId !== agent.id) {
      if (job.userId && job.status) recovered.push({ id: job.id, status: job.status });
      continue;
    }
    if (!FINISHED_JOB_STATUSES.includes(job.status)) {
      const after = await loseJob(ctx, job, `The agent "${agent.name}" restarted while the job was ${job.status}`);
      recovered.push({ id: job.id, status: after.status });
    } else recovered.push({ id: job.id, status: job.status });
  }
  return { agent: updated, recovered };
}

export async function heartbeat(ctx: AppContext, agent: AgentRow, jobIds: string[]) {
  const now = ctx.clock.now();
  await agentsRepository.updateAgent(ctx.db, agent.id, { lastHeartbeatAt: now });
  const renewed = await agentsRepository.renewLeases(ctx.db, agent.id, jobIds, now, new Date(now.getTime() + leaseMs(ctx)));
  const live = new Set(renewed.map((j) => j.id));
  const cancel: string[] = [];
  for (const job of renewed) {
    if (job.kind === 'train') await settleRun(ctx, job);
    if (await wantsCancel(ctx, job.id)) cancel.push(job.id);
  }
  return { cancel, unknown: jobIds.filter((id) => !live.has(id)) };
}

async function wantsCancel(ctx: AppContext, jobId: string) {
  const job = await agentsRepository.job(ctx.db, jobId);
  return Boolean(job && (job.cancelRequestedAt || FINISHED_JOB_STATUSES.includes(job.status)));
}

const waiters = new Set<() => void>();
export function wakeAgents() {
  for (const w of [...waiters]) w();
  agentEvents.emit(WAKE);
}
let closing = false;
export function stopWaiting(value = true) {
  closing = value;
  if (value) wakeAgents();
}

/** Long-poll: claims a job now, or waits (woken by new work, polling for other instances) until waitMs. */
export async function claim(ctx: AppContext, agent: AgentRow, waitMs: number, signal?: AbortSignal) {
  const deadline = Date.now() + waitMs;
  await agentsRepository.updateAgent(ctx.db, agent.id, { lastHeartbeatAt: ctx.clock.now() });
  for (;;) {
    if (closing || signal?.aborted) return null;
    await sweep(ctx);
    const now = ctx.clock.now();
    const fresh = await agentsRepository.agentById(ctx.db, agent.id);
    if (!fresh || fresh.revokedAt) throw errors.unauthorized('Invalid or revoked agent token');
    // Runs at once per plan (pro 3 by default; admins may change it).
    const concurrency = Object.fromEntries((await allPlanLimits(ctx)).map((p) => [p.plan, p.limits.cloudRunsConcurrent]));
    // Only what it can run (ADR 0021): nothing without ultralytics, training only over the Platform protocol.
    const can = capabilitiesOf(fresh);
    const job = can.export ? await agentsRepository.claim(ctx.db, fresh, { train: can.train }, concurrency, now, new Date(now.getTime() + leaseMs(ctx))) : null;
    if (job) return job;
    const left = deadline - Date.now();
    if (left <= 0 || closing || signal?.aborted) return null;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(left, 1000));
      waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
    await agentsRepository.updateAgent(ctx.db, agent.id, { lastHeartbeatAt: ctx.clock.now() });
  }
}

/** The job the calling agent holds, or 404 / 409 when it is not (or no longer) its job. */
export async function heldJob(ctx: AppContext, agent: AgentRow, jobId: string) {
  const job = await agentsRepository.job(ctx.db, jobId);
  if (!job || job.agentId !== agent.id) throw errors.notFound('Job');
  if (FINISHED_JOB_STATUSES.includes(job.status)) throw errors.conflict(ErrorCode.JobFinished, `This job is already ${job.status}`);
  if (job.status === 'queued') throw errors.conflict(ErrorCode.JobLost, 'The lease on this job ran out and it was handed back');
  return job;
}

export async function markRunning(ctx: AppContext, agent: AgentRow, jobId: string) {
  const job = await heldJob(ctx, agent, jobId);
  const now = ctx.clock.now();
  return (await agentsRepository.updateJob(ctx.db, job.id, {
    status: 'running',
    startedAt: job.startedAt ?? now,
    heartbeatAt: now,
    leaseUntil: new Date(now.getTime() + leaseMs(ctx)),
    updatedAt: now,
  }))!;
}

export async function appendLog(ctx: AppContext, agent: AgentRow, jobId: string, seq: number, content: string) {
  const job = await heldJob(ctx, agent, jobId);
  const now = ctx.clock.now();
  // No event per chunk (pages refetch the model on model events); an open log polls while live.
  await agentsRepository.appendLog(ctx.db, job.id, seq, content, now);
  return { cancel: await wantsCancel(ctx, job.id) };
}

/** The agent's end of a job. A failure after a requested stop is the stop: status cancelled. */
export async function finishJob(ctx: AppContext, agent: AgentRow, jobId: string, body: z.infer<typeof agentFinishBody>) {
  const job = await heldJob(ctx, agent, jobId);
  let status = body.status;
  if (status !== 'succeeded' && job.cancelRequestedAt) status = 'cancelled';
  const reason =
    status === 'failed'
      ? (body.error ?? (body.signal ? `yolo was killed by ${body.signal}` : `yolo exited with code ${body.exitCode ?? '?'}`))
      : status === 'cancelled'
        ? (body.error ?? 'Stopped')
        : null;
  return settle(ctx, job, status, reason, body.exitCode ?? null);
}

/** Every end of a job goes through here: status, billing, the per-run key, the export row, events. */
async function settle(ctx: AppContext, job: AgentJobRow, status: 'succeeded' | 'failed' | 'cancelled', reason: string | null, exitCode: number | null) {
  const now = ctx.clock.now();
  let finalStatus = status;
  let finalReason = reason;
  const hooks = kindOf(ctx, job);
  if (hooks.onFinished) {
    const outcome = await hooks.onFinished(ctx, (await agentsRepository.job(ctx.db, job.id)) ?? job, status, reason);
    finalStatus = outcome.status;
    finalReason = outcome.error;
  }
  const updated = await agentsRepository.updateJob(
    ctx.db,
    job.id,
    { status: finalStatus, error: finalReason?.slice(0, 4000) ?? null, exitCode, finishedAt: now, leaseUntil: null, updatedAt: now },
    ['queued', 'claimed', 'running'],
  );
  if (!updated) return (await agentsRepository.job(ctx.db, job.id))!;
  await hooks.afterFinished?.(ctx, updated);
  for (const fn of ctx.registry.of(extensions).finishListeners) await fn(ctx, updated);
  await dropRunKey(ctx, updated);
  await publishModelChange(ctx, job.modelId);
  return updated;
}

/** Revokes the per-run API key of a cloud run (its yolo can report nothing more). */
export async function dropRunKey(ctx: AppContext, job: AgentJobRow) {
  if (!job.runKeyId) return;
  await revokeApiKey(ctx, job.userId, job.runKeyId).catch(() => undefined);
}

/**
 * A job whose agent is gone (lease ran out, agent revoked or restarted): exports go back to the
 * queue while attempts remain; training cannot resume on another host, so it fails with the reason.
 */
async function loseJob(ctx: AppContext, job: AgentJobRow, reason: string) {
  if (job.kind === 'export' && job.attempts < job.maxAttempts && !job.cancelRequestedAt) {
    const now = ctx.clock.now();
    const requeued = await agentsRepository.updateJob(ctx.db, job.id, { status: 'queued', agentId: null, leaseUntil: null, error: reason, updatedAt: now }, [
      'claimed',
      'running',
    ]);
    if (requeued) {
      await agentsRepository.appendLog(
        ctx.db,
        job.id,
        1_000_000 + job.attempts,
        `[hub] ${reason}; queued again (attempt ${job.attempts + 1} of ${job.maxAttempts})\n`,
        now,
      );
      await kindOf(ctx, requeued).onRequeued?.(ctx, requeued);
      wakeAgents();
      return requeued;
    }
    return (await agentsRepository.job(ctx.db, job.id))!;
  }
  return settle(ctx, job, job.cancelRequestedAt ? 'cancelled' : 'failed', reason, null);
}

let lastSweep = 0;
/** Hands back jobs whose lease ran out, and queues ONNX exports for freshly trained models. Cheap, so every claim runs it. */
export async function sweep(ctx: AppContext, force = false) {
  if (!force && Date.now() - lastSweep < 250) return;
  lastSweep = Date.now();
  const now = ctx.clock.now();
  for (const job of await agentsRepository.expiredJobs(ctx.db, now)) {
    const agent = job.agentId ? await agentsRepository.agentById(ctx.db, job.agentId) : null;
    const silentFor = job.heartbeatAt ? Math.round((now.getTime() - job.heartbeatAt.getTime()) / 1000) : null;
    await loseJob(ctx, job, `The agent${agent ? ` "${agent.name}"` : ''} stopped responding${silentFor !== null ? ` (no heartbeat for ${silentFor} s)` : ''}`);
  }
  for (const fn of ctx.registry.of(extensions).sweepers) await fn(ctx);
}

// ---- jobs seen by people

export async function enqueueJob(
  ctx: AppContext,
  row: Omit<Parameters<typeof agentsRepository.insertJob>[1], 'id' | 'createdAt' | 'updatedAt'> & { id?: string },
) {
  const now = ctx.clock.now();
  const job = await agentsRepository.insertJob(ctx.db, { createdAt: now, updatedAt: now, ...row, id: row.id ?? newId() });
  wakeAgents();
  return job;
}

export async function requestCancel(ctx: AppContext, by: { id: string; roles: string[] }, jobId: string) {
  const job = await agentsRepository.job(ctx.db, jobId);
  if (!job) throw errors.notFound('Job');
  assertCanSeeJob(by, job);
  if (FINISHED_JOB_STATUSES.includes(job.status)) return job;
  const now = ctx.clock.now();
  if (job.status === 'queued') {
    // Nothing runs yet: cancelled at once (and no charge, the run never started).
    const updated = await agentsRepository.updateJob(ctx.db, job.id, { cancelRequestedAt: now, updatedAt: now }, ['queued']);
    if (updated) return settle(ctx, updated, 'cancelled', 'Cancelled before an agent started it', null);
  }
  let updated = (await agentsRepository.updateJob(ctx.db, job.id, { cancelRequestedAt: job.cancelRequestedAt ?? now, updatedAt: now }))!;
  // Billing stops with the request: epochs finished after it are not charged.
  if (updated.kind === 'train') updated = await settleRun(ctx, updated, { freeze: true });
  await publishModelChange(ctx, job.modelId);
  return updated;
}

export async function jobLog(ctx: AppContext, by: { id: string; roles: string[] }, jobId: string, after: number) {
  const job = await agentsRepository.job(ctx.db, jobId);
  if (!job) throw errors.notFound('Job');
  assertCanSeeJob(by, job);
  const rows = await agentsRepository.logs(ctx.db, jobId, after, 2000);
  return { lines: rows.map((r) => r.content), next: rows.length ? rows[rows.length - 1]!.seq : after };
}

/** Last lines of a job's console, for a failure message. */
export async function tailOf(ctx: AppContext, jobId: string, lines = 20) {
  const chunks = await agentsRepository.lastLogs(ctx.db, jobId, 50);
  return chunks
    .map((c) => c.content)
    .join('')
    .split('\n')
    .filter((l) => l.trim())
    .slice(-lines)
    .join('\n');
}

export function newRunKey(ctx: AppContext, userId: string, modelId: string) {
  // limited to the run's dataset and model (api-keys.scope.ts, ADR 0023)
  return createRunKey(ctx, userId, modelId);
}

/** Claim + what to run: the yolo words, the environment, the files to fetch and the file to upload. */
export async function claimForAgent(ctx: AppContext, agent: AgentRow, waitMs: number, baseUrl: string, signal?: AbortSignal) {
  const job = await claim(ctx, agent, waitMs, signal);
  if (!job) return null;
  const hooks = kindOf(ctx, job);
  const spec = await hooks.command(ctx, job, baseUrl);
  await hooks.onClaimed?.(ctx, job);
  await publishModelChange(ctx, job.modelId);
  return { id: job.id, kind: job.kind, ...spec, leaseMs: leaseMs(ctx) };
}

/** Agents as people see them: admins all (or the shared pool), users their private ones. */
export async function listAgents(ctx: AppContext, caller: { id: string; roles: string[] }, scope: 'all' | 'mine') {
  const rows =
    scope === 'all' && caller.roles.includes('admin')
      ? await agentsRepository.listAgents(ctx.db)
      : await agentsRepository.listAgents(ctx.db, { ownerUserId: caller.id });
  const jobs = await agentsRepository.activeJobsOfAgents(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ row, online: isOnline(ctx, row), currentJob: jobs.find((j) => j.agentId === row.id) ?? null }));
}

export async function listActiveJobs(ctx: AppContext) {
  const jobs = await agentsRepository.listJobs(ctx.db, { statuses: ['queued', 'claimed', 'running'] });
  const names = await agentsRepository.modelNames(ctx.db, [...new Set(jobs.map((j) => j.modelId))]);
  return jobs.map((job) => ({ job, modelName: names.get(job.modelId) ?? null }));
}

export async function deleteGpuType(ctx: AppContext, id: string) {
  if (!(await agentsRepository.deleteGpuType(ctx.db, id))) throw errors.notFound('GPU type');
}
