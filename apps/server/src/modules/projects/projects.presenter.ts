import type { Abilities, Project } from '@sightline/contracts';
import type { ProjectRow } from './projects.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentProject(
  row: ProjectRow,
  extra: {
    abilities: Abilities;
    username: string;
    totals?: { count: number; bytes: number; exports: Record<string, number> };
    /** the cover image's short, access-bound link */ imageUrl: string | null;
  },
): Project {
  const t = extra.totals ?? { count: 0, bytes: 0, exports: {} };
  return {
    id: row.id,
    slug: row.slug,
    dates: { created: row.createdAt.toISOString(), updated: row.updatedAt.toISOString(), archived: iso(row.archivedAt), deleted: iso(row.deletedAt) },
    meta: { name: row.name, description: row.description, privacy: row.privacy },
    image: {
      path: row.imageKey,
      bytes: row.imageBytes,
      url: extra.imageUrl,
    },
    models: { count: t.count, exports: t.exports },
    owner: { uid: row.userId, username: extra.username },
    team: { id: row.teamId },
    totals: { models: t.count, bytes: t.bytes + row.imageBytes },
    abilities: extra.abilities,
  };
}
