import type { AppContext } from '../../context.js';
import { record } from './audit.service.js';

/**
 * Audit entries from domain events (ADR 0031) that no analytics event stands for (the analytics
 * listener audits the security-relevant analytics events through `track`).
 */
export function registerAuditListeners(ctx: AppContext) {
  const restored = (type: 'project' | 'model' | 'dataset', id: string, actorId: string) => record(ctx, { action: 'item.restore', actor: { id: actorId }, target: { type, id }, userId: null });
  ctx.events.on('project.restored', (e) => restored('project', e.data.projectId, e.data.actorId));
  ctx.events.on('model.restored', (e) => restored('model', e.data.model.id, e.data.actorId));
  ctx.events.on('dataset.restored', (e) => restored('dataset', e.data.dataset.id, e.data.actorId));
}
