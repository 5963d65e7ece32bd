import type { Action } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { accessItem, authorize, type AccessItem } from '../access/index.js';
import { projectItem } from '../projects/projects.policy.js';
import type { ProjectRow } from '../projects/index.js';
import type { ModelRow } from './models.repository.js';

type Ctx = Pick<AppContext, 'db'>;
type ModelAccessRow = Pick<ModelRow, 'userId' | 'teamId' | 'privacy' | 'deletedAt'>;
type ParentRow = Pick<ProjectRow, 'userId' | 'teamId' | 'privacy' | 'deletedAt'>;

/** A model, with its project as parent: models of a readable project are readable (spec §6). */
export const modelItem = (row: ModelAccessRow, project?: ParentRow | null): AccessItem => accessItem('model', row, project ? projectItem(project) : null);

const NAME = 'Model';

/** Who may do what with a model: the matrix of contracts/permissions.ts through access. */
export const modelsPolicy = {
  /** 404 unless the caller may do this read-only action (read, predict, download), directly or through the project. */
  read: <T extends ModelAccessRow>(
    ctx: Ctx,
    viewerId: string | null,
    row: T | null | undefined,
    project: ParentRow | null,
    action: Extract<Action, 'read' | 'predict' | 'download'> = 'read',
  ) => authorize(ctx, viewerId, row, (r) => modelItem(r, project), action, { name: NAME }),
  /** 404 when the caller may not read it, 403 when they may read but not do the action. */
  act: <T extends ModelAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined, project: ParentRow | null, action: Action) =>
    authorize(ctx, userId, row, (r) => modelItem(r, project), action, { name: NAME, forbidden: 'Only the owner can change this model' }),
  /**
   * Changing where the model lives (ADR 0023): `move` to another project of its team (owner or team
   * admin), `transfer` anywhere else (the owner only). 404 when not readable, else 403.
   */
  relocate: <T extends ModelAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined, project: ParentRow | null, action: 'move' | 'transfer') =>
    authorize(ctx, userId, row, (r) => modelItem(r, project), action, {
      name: NAME,
      forbidden: action === 'move' ? 'Only the owner or a team admin can move this model' : "Only the model's owner can move it out of its team",
    }),
  /** Delete and restore: others learn nothing about the model (404). */
  hidden: <T extends ModelAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined, action: Action) =>
    authorize(ctx, userId, row, (r) => modelItem(r), action, { name: NAME, hideDenied: true }),
};
