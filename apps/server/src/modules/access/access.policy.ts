import type { CredentialScope } from '../../platform/http/auth-context.js';
import {
  abilitiesFor,
  can,
  subjectForRole,
  visibilityOf,
  type Abilities,
  type Action,
  type ObjectKind,
  type Privacy,
  type Subject,
  type TeamMemberRole,
} from '@sightline/contracts';

/** What access rules need to know about a dataset, project, model or team. */
export interface AccessItem {
  kind: ObjectKind;
  /** the item's id (a limited credential reaches listed ids only) */
  id?: string | null;
  /** the owner's uid */
  userId: string;
  teamId?: string | null;
  privacy: Privacy;
  deletedAt?: Date | null;
  /** a model's project: its models are readable when the project is (spec §6) */
  parent?: AccessItem | null;
}

/** The access item of a stored row (its owner, team, privacy and trash date). */
export function accessItem(
  kind: ObjectKind,
  row: { id?: string; userId: string; teamId?: string | null; privacy: Privacy; deletedAt?: Date | null },
  parent?: AccessItem | null,
): AccessItem {
  return {
    kind,
    id: row.id ?? null,
    userId: row.userId,
    teamId: row.teamId ?? null,
    privacy: row.privacy,
    deletedAt: row.deletedAt ?? null,
    parent: parent ?? null,
  };
}

/** The caller as access rules see it: a uid (API keys act as their owner) and its team roles. */
export interface Viewer {
  userId: string | null;
  /** role per team id, for the teams of the items being checked */
  roles: ReadonlyMap<string, TeamMemberRole>;
  /** a limited credential's reach (a run key, ADR 0023): nothing outside it, whatever the matrix says */
  scope?: CredentialScope | null;
}

export const anonymousViewer: Viewer = { userId: null, roles: new Map() };
/** A viewer with no team roles: rules for items that belong to no team. */
export const viewerOf = (userId: string | null): Viewer => ({ userId, roles: new Map() });

/** Actions a readable parent grants on its children (read-only ones). */
const INHERITED = new Set<Action>(['read', 'list', 'predict', 'download']);
/** What may still happen to an item in the trash, by those who may restore it. */
const ON_DELETED = new Set<Action>(['read', 'restore', 'delete']);

export function subjectOf(viewer: Viewer, item: AccessItem): Subject {
  if (!viewer.userId) return 'anonymous';
  if (item.userId === viewer.userId) return 'owner';
  const role = item.teamId ? viewer.roles.get(item.teamId) : undefined;
  return role ? subjectForRole(role, item.kind) : 'user';
}

/** What a run key does with the items it works on (its run's model); the items it reads allow INHERITED actions only. */
const SCOPED_WORK = new Set<Action>(['read', 'list', 'update', 'train', 'predict', 'download']);

/** Does a limited credential reach this item for this action? (ADR 0023) */
export function inScope(scope: CredentialScope, item: AccessItem, action: Action): boolean {
  if (!item.id) return false;
  if (scope.works.includes(item.id)) return SCOPED_WORK.has(action);
  return scope.reads.includes(item.id) && INHERITED.has(action);
}

/** THE access function: may this viewer do this action on this item? (matrix in contracts/permissions.ts) */
export function allows(viewer: Viewer, item: AccessItem, action: Action): boolean {
  if (viewer.scope && !inScope(viewer.scope, item, action)) return false;
  const subject = subjectOf(viewer, item);
  if (subject === 'owner') return true;
  const visibility = visibilityOf(item.privacy, item.teamId);
  if (item.deletedAt) return ON_DELETED.has(action) && can(subject, item.kind, visibility, 'restore');
  if (can(subject, item.kind, visibility, action)) return true;
  const parent = item.parent;
  return Boolean(parent && INHERITED.has(action) && !parent.deletedAt && allows(viewer, parent, action));
}

/** The abilities a response carries (the SPA hides what the caller may not do). */
export function abilitiesOf(viewer: Viewer, item: AccessItem): Abilities {
  const subject = subjectOf(viewer, item);
  return abilitiesFor(subject, item.kind, visibilityOf(item.privacy, item.teamId));
}

/** Team ids whose roles matter for these items (and their parents). */
export function teamIdsOf(items: Iterable<AccessItem | null | undefined>): string[] {
  const ids = new Set<string>();
  for (let item of items) {
    while (item) {
      if (item.teamId) ids.add(item.teamId);
      item = item.parent;
    }
  }
  return [...ids];
}
