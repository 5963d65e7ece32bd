import type { Abilities, Project } from '@sightline/contracts';
import { signBlobUrl } from '../../platform/storage/signed-url.js';
import type { ProjectRow } from './projects.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');

export function presentProject(
  row: ProjectRow,
  extra: { abilities: Abilities; username: string; totals?: { count: number; bytes: number; exports: Record<string, number> }; secret: string },
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
      url: row.imageKey ? signBlobUrl({ key: row.imageKey, expiresAt: FAR_FUTURE, secret: extra.secret, baseUrl: '' }) : null,
    },
    models: { count: t.count, exports: t.exports },
    owner: { uid: row.userId, username: extra.username },
    team: { id: row.teamId },
    totals: { models: t.count, bytes: t.bytes + row.imageBytes },
    abilities: extra.abilities,
  };
}
