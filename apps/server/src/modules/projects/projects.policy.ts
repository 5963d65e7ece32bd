import type { Action } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { accessItem, authorize, type AccessItem } from '../access/index.js';
import type { ProjectRow } from './projects.repository.js';

type Ctx = Pick<AppContext, 'db'>;
type ProjectAccessRow = Pick<ProjectRow, 'userId' | 'teamId' | 'privacy' | 'deletedAt'>;

export const projectItem = (row: ProjectAccessRow): AccessItem => accessItem('project', row);

const NAME = 'Project';

/** Who may do what with a project: the matrix of contracts/permissions.ts through access. */
export const projectsPolicy = {
  /** 404 unless the caller may read it (private projects do not reveal they exist). */
  read: <T extends ProjectAccessRow>(ctx: Ctx, viewerId: string | null, row: T | null | undefined) =>
    authorize(ctx, viewerId, row, projectItem, 'read', { name: NAME }),
  /** 404 when the caller may not read it, 403 when they may read but not do the action. */
  act: <T extends ProjectAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined, action: Action) =>
    authorize(ctx, userId, row, projectItem, action, { name: NAME, forbidden: 'Only the owner can change this project' }),
  /** Restore and delete forever: others learn nothing about the item (404). */
  trash: <T extends ProjectAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined, action: 'restore' | 'delete') =>
    authorize(ctx, userId, row, projectItem, action, { name: NAME, hideDenied: true }),
  /** A live project the caller may put models in (create, upload, transfer); else 404. */
  async addModels<T extends ProjectAccessRow>(ctx: Ctx, userId: string, row: T | null | undefined): Promise<T> {
    const project = await authorize(ctx, userId, row, projectItem, 'update', { name: NAME, hideDenied: true });
    if (project.deletedAt) throw errors.notFound(NAME);
    return project;
  },
};
