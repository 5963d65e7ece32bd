import type { Abilities, Privacy } from '@sightline/contracts';

/**
 * Read and write rules of spec §6, one place for every resource:
 * owners do everything; others read public items and, by id, unlisted ones.
 */
export interface Owned {
  userId: string;
  privacy: Privacy;
  deletedAt: Date | null;
}

export function canRead(viewerId: string | null, item: Owned, opts: { listed?: boolean; viaParent?: Owned | null } = {}): boolean {
  if (viewerId && item.userId === viewerId) return true;
  if (item.deletedAt) return false;
  const visible = (p: Privacy) => (opts.listed ? p === 'public' : p === 'public' || p === 'unlisted');
  if (visible(item.privacy)) return true;
  // Models of a public or unlisted project are readable (spec §6).
  const parent = opts.viaParent;
  return Boolean(parent && !parent.deletedAt && visible(parent.privacy));
}

export function abilities(viewerId: string | null, item: { userId: string }): Abilities {
  const own = viewerId !== null && viewerId === item.userId;
  return { canEdit: own, canDelete: own, canShare: own };
}
