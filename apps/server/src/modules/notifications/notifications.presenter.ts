import type { AppNotification } from '@sightline/contracts';
import type { NotificationWithInvite } from './notifications.repository.js';

const PATHS = { team: 'teams', dataset: 'datasets', model: 'models' } as const;
/** Records about a user (an upgrade request) open the admins' list of requests. */
const pathOf = (row: NotificationWithInvite, tab: string | undefined) =>
  row.subjectKind === 'user' ? '/admin?tab=requests' : `/${PATHS[row.subjectKind]}/${encodeURIComponent(row.subjectId)}${tab ? `?tab=${tab}` : ''}`;
/** The tab of the model page a record leads to: the run's charts, or the exports (Deploy). */
const TAB: Partial<Record<NotificationWithInvite['kind'], string>> = {
  'training.completed': 'training',
  'training.failed': 'training',
  'export.succeeded': 'deploy',
};

/** A record as the bell and /notifications show it: the page it opens, an invite's state. */
export function presentNotification(row: NotificationWithInvite): AppNotification {
  return {
    id: row.id,
    kind: row.kind,
    read: row.readAt !== null,
    created: row.createdAt.toISOString(),
    subject: { kind: row.subjectKind, id: row.subjectId, name: row.subjectName },
    detail: row.detail,
    invite: row.invite
      ? { role: row.invite.role, invitedBy: row.invite.invitedBy, expires: row.invite.expiresAt.toISOString(), pending: row.invite.pending }
      : null,
    path: pathOf(row, TAB[row.kind]),
  };
}

/** The keyset cursor of a page: the (created, id) of its last item, opaque to clients. */
export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}
export function decodeCursor(cursor: string): { created: Date; id: string } | null {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const created = iso ? new Date(iso) : null;
  return created && !Number.isNaN(created.getTime()) && id && /^[\w-]{1,40}$/.test(id) ? { created, id } : null;
}
