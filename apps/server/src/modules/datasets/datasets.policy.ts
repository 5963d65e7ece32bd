import type { Action } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { accessItem, authorize, type AccessItem } from '../access/index.js';
import type { DatasetRow } from './datasets.repository.js';

type Ctx = Pick<AppContext, 'db'>;
type DatasetAccessRow = Pick<DatasetRow, 'userId' | 'teamId' | 'privacy' | 'deletedAt'>;

export const datasetItem = (row: DatasetAccessRow): AccessItem => accessItem('dataset', row);

const NAME = 'Dataset';

/** Who may do what with a dataset: the matrix of contracts/permissions.ts through access. */
export const datasetsPolicy = {
  /** 404 unless the caller may read it. */
  read: <T extends DatasetAccessRow>(ctx: Ctx, viewerId: string | null, row: T | null | undefined) =>
    authorize(ctx, viewerId, row, datasetItem, 'read', { name: NAME }),
  /**
   * 404 when the caller may not read it, 403 when they may read but not do the action; an item in
   * the trash is 404 unless the action is meant for the trash (`allowDeleted`).
   */
  async act<T extends DatasetAccessRow>(
    ctx: Ctx,
    userId: string,
    row: T | null | undefined,
    action: Action,
    opts: { allowDeleted?: boolean } = {},
  ): Promise<T> {
    const dataset = await authorize(ctx, userId, row, datasetItem, action, { name: NAME, forbidden: 'Only the owner can change this dataset' });
    if (dataset.deletedAt && !opts.allowDeleted) throw errors.notFound(NAME);
    return dataset;
  },
  /** Restore from the trash page, and the end of an upload: others learn nothing (404). */
  hidden: <T extends DatasetAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined, action: Action) =>
    authorize(ctx, userId, row, datasetItem, action, { name: NAME, hideDenied: true }),
};
