import { NOTIFICATION_RETENTION_DAYS, type NotificationKind } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { notificationsPolicy } from './notifications.policy.js';
import { decodeCursor, encodeCursor, presentNotification } from './notifications.presenter.js';
import { notificationsRepository as repo } from './notifications.repository.js';

/** The signed-in user as this module needs them: invites are addressed to an email. */
export interface Recipient {
  id: string;
  email: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  subject: { kind: 'team' | 'dataset' | 'model' | 'user'; id: string; name: string };
  detail?: string | null;
  inviteId?: string | null;
}

/**
 * Makes a record (ADR 0028), drops the user's records past the retention window, and pushes the
 * new unread count to the user's notifications topic. An invite's record is made once per invite.
 */
export async function record(ctx: AppContext, input: NewNotification) {
  if (!(await repo.liveUser(ctx.db, input.userId))) return null;
  const now = ctx.clock.now();
  const row = await repo.insert(ctx.db, {
    id: newId(),
    userId: input.userId,
    kind: input.kind,
    subjectKind: input.subject.kind,
    subjectId: input.subject.id,
    subjectName: input.subject.name.slice(0, 200),
    detail: input.detail?.slice(0, 2000) ?? null,
    inviteId: input.inviteId ?? null,
    dedupeKey: input.inviteId ? `invite:${input.inviteId}` : null,
    createdAt: now,
  });
  await repo.prune(ctx.db, input.userId, new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * DAY_MS));
  if (row) await publishCount(ctx, input.userId);
  return row;
}

/** A team invite to an address that has an account: the bell counts it at once (teams call this). */
export async function notifyInvite(ctx: AppContext, userId: string, invite: { id: string; teamId: string; teamName: string }) {
  return record(ctx, { userId, kind: 'team.invite', subject: { kind: 'team', id: invite.teamId, name: invite.teamName }, inviteId: invite.id });
}

/**
 * Invites sent to the address before it had an account (or before this module existed) get their
 * record the first time the bell or the list is read.
 */
async function recordWaitingInvites(ctx: AppContext, me: Recipient) {
  const now = ctx.clock.now();
  for (const i of await repo.unrecordedInvites(ctx.db, me.id, me.email, now)) {
    await repo.insert(ctx.db, {
      id: newId(),
      userId: me.id,
      kind: 'team.invite',
      subjectKind: 'team',
      subjectId: i.teamId,
      subjectName: i.teamName,
      inviteId: i.id,
      dedupeKey: `invite:${i.id}`,
      createdAt: i.createdAt,
    });
  }
}

export async function unreadCount(ctx: AppContext, me: Recipient) {
  await recordWaitingInvites(ctx, me);
  return repo.unreadCount(ctx.db, me.id, ctx.clock.now());
}

/** A page of the caller's own records, newest first, and the unread count. */
export async function list(ctx: AppContext, me: Recipient, query: { cursor?: string; limit: number; unread?: 'true' | 'false' }) {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !after) throw errors.validation('cursor must be the nextCursor of a previous page', { field: 'cursor' });
  await recordWaitingInvites(ctx, me);
  const now = ctx.clock.now();
  const rows = await repo.page(ctx.db, me.id, { after, limit: query.limit + 1, unreadOnly: query.unread === 'true', now });
  const items = rows.slice(0, query.limit).map((r) => notificationsPolicy.check(me.id, r, 'list'));
  return {
    items: items.map(presentNotification),
    nextCursor: rows.length > query.limit ? encodeCursor(items[items.length - 1]!) : null,
    unread: await repo.unreadCount(ctx.db, me.id, now),
  };
}

/** Marks one of the caller's records read; another user's record is a 404 (policy). */
export async function markRead(ctx: AppContext, me: Recipient, id: string) {
  notificationsPolicy.check(me.id, await repo.byId(ctx.db, id), 'update');
  if (await repo.markRead(ctx.db, me.id, id, ctx.clock.now())) await publishCount(ctx, me.id);
  return repo.unreadCount(ctx.db, me.id, ctx.clock.now());
}

export async function markAllRead(ctx: AppContext, me: Recipient) {
  if (await repo.markAllRead(ctx.db, me.id, ctx.clock.now())) await publishCount(ctx, me.id);
  return 0;
}

/** The bell's count is sent by notifications.listeners.ts (ADR 0031: realtime only from listeners). */
async function publishCount(ctx: AppContext, userId: string) {
  await ctx.events.emit('notifications.changed', userId, { userId });
}

/** Item names for records of events that carry only an id (training failures, exports). */
export async function itemName(ctx: AppContext, kind: 'model' | 'dataset', id: string) {
  const row = kind === 'model' ? await repo.modelName(ctx.db, id) : await repo.datasetName(ctx.db, id);
  return row?.name ?? '';
}
