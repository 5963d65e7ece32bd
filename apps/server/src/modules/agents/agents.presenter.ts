import type { Agent, AgentJobSummary, CloudRun, GpuType } from '@sightline/contracts';
import type { AgentJobRow, AgentRow, GpuTypeRow } from './agents.repository.js';
import { capabilitiesOf } from './agents.capabilities.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentJob(job: AgentJobRow): AgentJobSummary {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    modelId: job.modelId,
    exportId: job.exportId,
    userId: job.userId,
    agentId: job.agentId,
    gpuType: job.gpuTypeId,
    attempts: job.attempts,
    error: job.error,
    exitCode: job.exitCode,
    created: job.createdAt.toISOString(),
    started: iso(job.startedAt),
    finished: iso(job.finishedAt),
    cancelRequested: job.cancelRequestedAt !== null,
  };
}

export function presentAgent(row: AgentRow, online: boolean, currentJob: AgentJobRow | null): Agent {
  return {
    id: row.id,
    name: row.name,
    shared: row.ownerUserId === null,
    ownerUserId: row.ownerUserId,
    tokenPrefix: row.tokenPrefix,
    online,
    hostname: row.hostname,
    gpu: row.gpuName ? { name: row.gpuName, memoryMb: row.gpuMemoryMb, count: row.gpuCount } : null,
    gpuType: row.gpuTypeId,
    cpu: row.cpu,
    ultralyticsVersion: row.ultralyticsVersion,
    agentVersion: row.agentVersion,
    capabilities: capabilitiesOf(row),
    lastHeartbeat: iso(row.lastHeartbeatAt),
    created: row.createdAt.toISOString(),
    revoked: iso(row.revokedAt),
    currentJob: currentJob ? presentJob(currentJob) : null,
  };
}

export function presentGpuType(row: GpuTypeRow, online: number): GpuType {
  return {
    id: row.id,
    name: row.name,
    device: row.device,
    match: row.match,
    hourlyRateMicro: row.hourlyRateMicro,
    imagesPerSecond: row.imagesPerSecond,
    enabled: row.enabled,
    online,
  };
}

export function presentCloudRun(job: AgentJobRow): CloudRun {
  return {
    job: presentJob(job),
    holdMicro: job.holdMicro,
    settledMicro: job.settledMicro,
    epochsSettled: job.epochsSettled,
    epochs: job.epochs,
    pricePerEpochMicro: job.pricePerEpochMicro,
    charged: job.charged,
  };
}
