import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

type ProjectMessage = 'project.created' | 'project.updated' | 'project.deleted' | 'project.restored';

/** Realtime for projects (ADR 0031): the owner's project list and the project's own page hear each change. */
export function registerProjectsListeners(ctx: AppContext) {
  const publish = (event: ProjectMessage) => async (e: { ownerId: string | null; data: { projectId: string } }) => {
    const id = e.data.projectId;
    if (e.ownerId) await ctx.bus.publish(topics.userProjects(e.ownerId), event, { id });
    await ctx.bus.publish(topics.project(id), event, { id });
  };
  ctx.events.on('project.created', publish('project.created'));
  ctx.events.on('project.updated', publish('project.updated'));
  ctx.events.on('project.shared', publish('project.updated'));
  ctx.events.on('project.archived', publish('project.updated'));
  ctx.events.on('project.deleted', publish('project.deleted'));
  ctx.events.on('project.restored', publish('project.restored'));
}
