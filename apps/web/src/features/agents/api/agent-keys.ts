export const agentKeys = {
  gpuTypes: ['gpu-types'] as const,
  adminGpuTypes: ['admin', 'gpu-types'] as const,
  agents: (scope: 'all' | 'mine') => ['agents', scope] as const,
  adminJobs: ['admin', 'agent-jobs'] as const,
  cloudRun: (modelId: string) => ['models', modelId, 'cloud'] as const,
  estimate: (modelId: string, body: unknown) => ['models', modelId, 'cloud', 'estimate', body] as const,
  log: (jobId: string) => ['agent-jobs', jobId, 'log'] as const,
};
