/** Query keys of the billing feature (one place, so mutations invalidate the right caches). */
export const billingKeys = {
  all: ['billing'] as const,
  summary: () => ['billing', 'summary'] as const,
  ledger: (modelId?: string) => ['billing', 'ledger', modelId ?? 'all'] as const,
  history: () => ['billing', 'history'] as const,
  modelCost: (modelId: string) => ['billing', 'model-cost', modelId] as const,
  adminPlans: () => ['billing', 'admin', 'plans'] as const,
  adminUser: (uid: string) => ['billing', 'admin', 'user', uid] as const,
  plans: () => ['billing', 'plans'] as const,
  myRequest: () => ['billing', 'upgrade-request'] as const,
  adminRequests: (status: string) => ['billing', 'admin', 'upgrade-requests', status] as const,
};
