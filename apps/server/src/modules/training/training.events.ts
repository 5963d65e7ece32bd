import type { AppContext } from '../../context.js';
import type { ModelRow } from '../models/index.js';

/**
 * What training tells the rest of the app, as domain events (ADR 0031); training.listeners.ts turns
 * them into realtime messages (small payloads: the bus caps NOTIFY at ~8 kB, the web app refetches).
 */
type Row = Pick<ModelRow, 'id' | 'userId' | 'projectId'>;
const state = (row: Row) => ({ id: row.id, projectId: row.projectId });

/** The run's state, the model's dates, status or files changed. */
export const runChanged = (ctx: AppContext, row: Row) => ctx.events.emit('training.runChanged', row.userId, { model: state(row) });
/** Epochs were stored. */
export const metricsRecorded = (ctx: AppContext, row: Row, epochs: number[], final: boolean) =>
  ctx.events.emit('training.metricsRecorded', row.userId, { model: state(row), epochs, final });
/** A console chunk was stored. */
export const consoleAppended = (ctx: AppContext, row: Row, chunkId: number) =>
  ctx.events.emit('training.consoleAppended', row.userId, { model: state(row), chunkId });

/** What webhooks say about a model (ADR 0016). */
export const modelRef = (m: Pick<ModelRow, 'id' | 'name' | 'slug' | 'projectId'>) => ({ id: m.id, name: m.name, slug: m.slug, projectId: m.projectId });
