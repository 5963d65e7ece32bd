import { topics, type RealtimeEventData } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { ModelRow } from '../models/models.repository.js';

/** Small realtime payloads (the bus caps NOTIFY at ~8 kB): the web app refetches what it shows. */
export async function publishModel<E extends 'model.updated' | 'model.metrics' | 'model.console'>(
  ctx: AppContext,
  row: Pick<ModelRow, 'id' | 'userId' | 'projectId'>,
  event: E,
  ...extra: Partial<Omit<RealtimeEventData<E>, 'id' | 'projectId'>> extends Omit<RealtimeEventData<E>, 'id' | 'projectId'> ? [extra?: Omit<RealtimeEventData<E>, 'id' | 'projectId'>] : [extra: Omit<RealtimeEventData<E>, 'id' | 'projectId'>]
) {
  const data = { id: row.id, projectId: row.projectId, ...extra[0] } as RealtimeEventData<E>;
  await ctx.bus.publish(topics.model(row.id), event, data);
  if (event === 'model.updated') await ctx.bus.publish(topics.userModels(row.userId), 'model.updated', { id: row.id, projectId: row.projectId });
}

/** What webhooks say about a model (issue 15). */
export const modelRef = (m: Pick<ModelRow, 'id' | 'name' | 'slug' | 'projectId'>) => ({ id: m.id, name: m.name, slug: m.slug, projectId: m.projectId });
