import type { AppContext } from '../../context.js';
import { accessItem, authorize, may, type AccessItem } from '../access/index.js';
import type { InferenceModelRow, InferenceProjectRow } from './inference.repository.js';

type Ctx = Pick<AppContext, 'db'>;
type EndpointAccessRow = { userId: string };

/** A model with its project: models of a readable project can be run by whoever reads it (spec §6). */
const modelItem =
  (project: InferenceProjectRow | null) =>
  (model: InferenceModelRow): AccessItem =>
    accessItem('model', model, project ? accessItem('project', project) : null);
/** A dedicated endpoint is private to whoever started it (it runs on their plan). */
const endpointItem = (row: EndpointAccessRow): AccessItem => ({ kind: 'model', userId: row.userId, privacy: 'private' });

export const inferencePolicy = {
  /** Shared inference: 404 unless the caller may run the model. */
  predict: (ctx: Ctx, viewerId: string | null, model: InferenceModelRow, project: InferenceProjectRow | null) =>
    authorize(ctx, viewerId, model, modelItem(project), 'predict', { name: 'Model' }),
  /** Dedicated endpoints run on the caller's plan for models they may change: 404 if not readable, else 403. */
  manage: (ctx: Ctx, userId: string, model: InferenceModelRow | null | undefined, project: InferenceProjectRow | null) =>
    authorize(ctx, userId, model, modelItem(project), 'update', { name: 'Model', forbidden: 'Only the owner can change this model' }),
  /** Whether the caller may see and call this endpoint. */
  mayUseEndpoint: (ctx: Ctx, userId: string, row: EndpointAccessRow) => may(ctx, userId, endpointItem(row), 'predict'),
  /** 404 unless the caller may call this endpoint. */
  useEndpoint: <T extends EndpointAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined) =>
    authorize(ctx, userId, row, endpointItem, 'predict', { name: 'Endpoint', hideDenied: true }),
};
