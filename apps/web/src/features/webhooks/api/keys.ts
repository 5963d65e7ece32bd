/** Query keys of the webhooks feature (one owner per key). */
export const webhookKeys = {
  all: ['webhooks'] as const,
  mine: () => [...webhookKeys.all, 'mine'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
  admin: () => [...webhookKeys.all, 'admin'] as const,
  adminDeliveries: () => [...webhookKeys.all, 'admin', 'deliveries'] as const,
  settings: () => [...webhookKeys.all, 'admin', 'settings'] as const,
};
