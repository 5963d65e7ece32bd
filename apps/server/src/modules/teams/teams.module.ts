import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerTeamsListeners } from './teams.listeners.js';
import { teamsRoutes } from './teams.routes.js';
import { callerById, visibleTeam } from './teams.service.js';

/** Teams (ADR 0008): routes, and who may listen to `team:<id>` (its members). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerTeamsListeners(ctx);
  app.topics.register('team', async (uid, id) => {
    const caller = await callerById(ctx, uid);
    return caller
      ? visibleTeam(ctx, caller, id).then(
          () => true,
          () => false,
        )
      : false;
  });
  await app.register(teamsRoutes);
}
