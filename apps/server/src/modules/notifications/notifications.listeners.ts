import type { AppContext } from '../../context.js';
import type { DomainEvent } from '../../platform/events/domain-events.js';
import { topics } from '@sightline/contracts';
import { notificationsRepository } from './notifications.repository.js';
import { itemName, record } from './notifications.service.js';

type Ref = { id?: unknown; name?: unknown };
const refOf = (value: unknown): { id: string; name: string | null } | null => {
  const ref = value as Ref | null | undefined;
  return ref && typeof ref.id === 'string' ? { id: ref.id, name: typeof ref.name === 'string' ? ref.name : null } : null;
};
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * The records domain events make (ADR 0028): a dataset processed or failed, a training run
 * completed or failed, an export finished, each for the item's owner. A run the user stopped
 * themselves is no news. One function, so that the event mechanism can move without this module
 * changing what it listens to.
 */
export function registerNotificationListeners(ctx: AppContext) {
  ctx.events.on((event) => onEvent(ctx, event));
  ctx.events.on('notifications.changed', async (e) =>
    ctx.bus.publish(topics.userNotifications(e.data.userId), 'notifications.changed', {
      unread: await notificationsRepository.unreadCount(ctx.db, e.data.userId, ctx.clock.now()),
    }),
  );
}

async function onEvent(ctx: AppContext, event: DomainEvent) {
  const { name, ownerId: userId, data } = event;
  if (!userId) return;
  switch (name) {
    case 'dataset.processed':
    case 'dataset.failed': {
      const dataset = refOf(data.dataset);
      if (!dataset) return;
      const subject = { kind: 'dataset' as const, id: dataset.id, name: dataset.name ?? (await itemName(ctx, 'dataset', dataset.id)) };
      await record(ctx, { userId, kind: name, subject, detail: name === 'dataset.failed' ? text(data.error) : null });
      return;
    }
    case 'training.completed':
    case 'training.failed': {
      const model = refOf(data.model);
      if (!model || (name === 'training.completed' && data.outcome === 'cancelled')) return;
      const subject = { kind: 'model' as const, id: model.id, name: model.name ?? (await itemName(ctx, 'model', model.id)) };
      await record(ctx, { userId, kind: name, subject, detail: name === 'training.failed' ? text(data.error) : null });
      return;
    }
    case 'model.exported': {
      const model = refOf(data.model);
      if (!model) return;
      const format = text((data.export as { format?: unknown } | undefined)?.format);
      await record(ctx, {
        userId,
        kind: 'export.succeeded',
        subject: { kind: 'model', id: model.id, name: model.name ?? (await itemName(ctx, 'model', model.id)) },
        detail: format,
      });
      return;
    }
    case 'support.upgradeRequested': {
      const request = data as { userId: string; username: string; plan: string };
      const subject = { kind: 'user' as const, id: request.userId, name: request.username };
      for (const adminId of await notificationsRepository.adminIds(ctx.db))
        if (adminId !== request.userId) await record(ctx, { userId: adminId, kind: 'upgrade.requested', subject, detail: request.plan });
      return;
    }
    default:
      return;
  }
}
