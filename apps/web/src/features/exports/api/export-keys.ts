export const exportKeys = {
  list: (modelId: string) => ['models', modelId, 'exports'] as const,
  log: (jobId: string) => ['agent-jobs', jobId, 'log'] as const,
};
