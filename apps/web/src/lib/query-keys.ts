/**
 * Query keys of the entities that several features touch (projects list their models, model
 * uploads change project totals, the trash restores both). Each key has one owner file in
 * features/<name>/api that fetches it; other features only read, patch or invalidate it.
 */
export const projectKeys = {
  all: ['projects'] as const,
  detail: (id: string) => ['projects', id] as const,
  models: (id: string) => ['projects', id, 'models'] as const,
};

export const modelKeys = {
  all: ['models'] as const,
  detail: (id: string) => ['models', id] as const,
};

export const trashKeys = { all: ['trash'] as const };

export const datasetKeys = { all: ['datasets'] as const };

/** Notification records (features/notifications): teams invalidate them when an invite is answered. */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (unread: boolean) => ['notifications', 'list', unread] as const,
  count: ['notifications', 'count'] as const,
};
