/** Query keys of the teams feature; every endpoint file below owns one. */
export const teamKeys = {
  all: ['teams'] as const,
  detail: (id: string) => ['teams', id] as const,
  members: (id: string) => ['teams', id, 'members'] as const,
  invites: (id: string) => ['teams', id, 'invites'] as const,
  items: (id: string) => ['teams', id, 'items'] as const,
  creation: ['team-creation'] as const,
};
