import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptInviteBody,
  addTeamItemBody,
  createInviteBody,
  createTeamBody,
  datasetSchema,
  modelSchema,
  projectSchema,
  specInviteBody,
  specRemoveBody,
  teamCreationSchema,
  teamInviteLinkSchema,
  teamInvitePreviewSchema,
  teamInviteSchema,
  teamInviteWithLinkSchema,
  teamItemKindSchema,
  teamMemberSchema,
  teamSchema,
  updateMemberBody,
  updateTeamBody,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { linkOriginOf } from '../../platform/http/link-origin.js';
import { intakeImage } from '../../platform/images/svg.js';
import { AppError } from '../../platform/http/errors.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { presentDatasets } from '../datasets/datasets.service.js';
import { presentModels } from '../models/models.service.js';
import { presentProjects } from '../projects/projects.service.js';
import * as teams from './teams.service.js';

const tags = ['teams'];
const idParams = z.object({ id: z.string().max(40) });
const memberParams = idParams.extend({ uid: z.string().max(40) });
const inviteParams = idParams.extend({ inviteId: z.string().max(40) });
const itemParams = idParams.extend({ kind: teamItemKindSchema, itemId: z.string().max(40) });
const one = z.object({ data: teamSchema });
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml']);
const gone = { 410: errorResponses[409] };
function responses<T extends z.ZodType>(code: 200, schema: T): { 200: T } & typeof errorResponses & typeof gone;
function responses<T extends z.ZodType>(code: 201, schema: T): { 201: T } & typeof errorResponses & typeof gone;
function responses(code: 200 | 201, schema: z.ZodType) {
  return { [code]: schema, ...errorResponses, ...gone };
}

/** The caller as the teams service needs it (API keys act with their owner's rights). */
const callerOf = (req: FastifyRequest): teams.Caller => {
  const { user } = requireUser(req);
  return { id: user.id, email: user.email, plan: user.plan };
};

/**
 * Teams: the resource API under /v1/teams and the spec's calls under /api_v1/teams (§7).
 * Every route is for signed-in users; a team outsiders may not see answers 404.
 */
export async function teamsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const auth = { auth: 'user' as const };
  /** Where invite links point for this request (ADR 0018). */
  const origin = (req: FastifyRequest) => linkOriginOf(req, ctx.config.trustProxy.length > 0);
  const presentOne = async (caller: teams.Caller, id: string) => {
    const { team } = await teams.visibleTeam(ctx, caller, id);
    return { data: (await teams.presentTeams(ctx, caller, [team]))[0]! };
  };

  r.get('/v1/teams', { config: auth, schema: { tags, response: responses(200, z.object({ data: z.array(teamSchema) })) } }, async (req) => {
    const caller = callerOf(req);
    return { data: await teams.presentTeams(ctx, caller, await teams.listTeams(ctx, caller)) };
  });

  r.get('/v1/teams/creation', { config: auth, schema: { tags, response: responses(200, z.object({ data: teamCreationSchema })) } }, async (req) => ({
    data: await teams.creationFor(ctx, callerOf(req)),
  }));

  r.get('/v1/teams/invites', { config: auth, schema: { tags, response: responses(200, z.object({ data: z.array(teamInviteSchema) })) } }, async (req) => ({
    data: await teams.myInvites(ctx, callerOf(req)),
  }));

  r.post('/v1/teams', { config: auth, schema: { tags, body: createTeamBody, response: responses(201, one) } }, async (req, reply) => {
    const caller = callerOf(req);
    const row = await teams.createTeam(ctx, caller, { name: req.body.meta?.name, description: req.body.meta?.description });
    return reply.status(201).send(await presentOne(caller, row.id));
  });

  r.get('/v1/teams/:id', { config: auth, schema: { tags, params: idParams, response: responses(200, one) } }, async (req) =>
    presentOne(callerOf(req), req.params.id),
  );

  r.patch('/v1/teams/:id', { config: auth, schema: { tags, params: idParams, body: updateTeamBody, response: responses(200, one) } }, async (req) => {
    const caller = callerOf(req);
    await teams.updateTeam(ctx, caller, req.params.id, req.body.meta);
    return presentOne(caller, req.params.id);
  });

  r.delete('/v1/teams/:id', { config: auth, schema: { tags, params: idParams, response: responses(200, okSchema) } }, async (req) => {
    await teams.deleteTeam(ctx, callerOf(req), req.params.id);
    return ok;
  });

  r.post(
    '/v1/teams/:id/image',
    { config: auth, schema: { tags, params: idParams, consumes: ['multipart/form-data'], response: responses(200, one) } },
    async (req) => {
      const caller = callerOf(req);
      const file = await req.file({ limits: { fileSize: 5 * 1024 * 1024 } });
      if (!file || !IMAGE_TYPES.has(file.mimetype)) throw new AppError(400, 'error/invalid-image', 'Must be a valid image file!');
      const bytes = await file.toBuffer();
      if (file.file.truncated) throw new AppError(413, 'error/payload-too-large', 'Team images can be at most 5 MB');
      // An SVG is drawn into a PNG (platform/images/svg.ts): never kept or served as SVG.
      await teams.setTeamImage(ctx, caller, req.params.id, await intakeImage({ bytes, contentType: file.mimetype, filename: file.filename }));
      return presentOne(caller, req.params.id);
    },
  );

  r.get(
    '/v1/teams/:id/members',
    { config: auth, schema: { tags, params: idParams, response: responses(200, z.object({ data: z.array(teamMemberSchema) })) } },
    async (req) => ({
      data: await teams.listMembers(ctx, callerOf(req), req.params.id),
    }),
  );

  r.patch(
    '/v1/teams/:id/members/:uid',
    { config: auth, schema: { tags, params: memberParams, body: updateMemberBody, response: responses(200, okSchema) } },
    async (req) => {
      await teams.setMemberRole(ctx, callerOf(req), req.params.id, req.params.uid, req.body.role);
      return ok;
    },
  );

  r.delete('/v1/teams/:id/members/:uid', { config: auth, schema: { tags, params: memberParams, response: responses(200, okSchema) } }, async (req) => {
    await teams.removeMember(ctx, callerOf(req), req.params.id, req.params.uid);
    return ok;
  });

  r.get(
    '/v1/teams/:id/invites',
    { config: auth, schema: { tags, params: idParams, response: responses(200, z.object({ data: z.array(teamInviteSchema) })) } },
    async (req) => ({
      data: await teams.listInvites(ctx, callerOf(req), req.params.id),
    }),
  );

  r.post(
    '/v1/teams/:id/invites',
    { config: auth, schema: { tags, params: idParams, body: createInviteBody, response: responses(201, z.object({ data: teamInviteWithLinkSchema })) } },
    async (req, reply) => reply.status(201).send({ data: await teams.invite(ctx, callerOf(req), req.params.id, req.body, origin(req)) }),
  );

  // Signed out: the link itself is the secret (sign-in and sign-up show whose team it opens).
  r.get(
    '/v1/teams/:id/invite-preview',
    {
      schema: {
        tags,
        params: idParams,
        querystring: z.object({ token: z.string().min(10).max(200) }),
        response: responses(200, z.object({ data: teamInvitePreviewSchema })),
      },
    },
    async (req) => ({ data: await teams.invitePreview(ctx, req.params.id, req.query.token) }),
  );

  r.get(
    '/v1/teams/:id/invites/:inviteId/link',
    { config: auth, schema: { tags, params: inviteParams, response: responses(200, z.object({ data: teamInviteLinkSchema })) } },
    async (req) => ({
      data: { link: await teams.inviteLinkOf(ctx, callerOf(req), req.params.id, req.params.inviteId, origin(req)) },
    }),
  );

  r.delete('/v1/teams/:id/invites/:inviteId', { config: auth, schema: { tags, params: inviteParams, response: responses(200, okSchema) } }, async (req) => {
    await teams.cancelInvite(ctx, callerOf(req), req.params.id, { id: req.params.inviteId });
    return ok;
  });

  r.get(
    '/v1/teams/:id/items',
    {
      config: auth,
      schema: {
        tags,
        params: idParams,
        response: responses(
          200,
          z.object({ data: z.object({ datasets: z.array(datasetSchema), projects: z.array(projectSchema), models: z.array(modelSchema) }) }),
        ),
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const items = await teams.teamItems(ctx, caller, req.params.id);
      return {
        data: {
          datasets: await presentDatasets(ctx, caller.id, items.datasets),
          projects: await presentProjects(ctx, caller.id, items.projects),
          models: await presentModels(ctx, caller.id, items.models),
        },
      };
    },
  );

  r.post(
    '/v1/teams/:id/items',
    { config: auth, schema: { tags, params: idParams, body: addTeamItemBody, response: responses(200, okSchema) } },
    async (req) => {
      await teams.addItem(ctx, callerOf(req), req.params.id, req.body.kind, req.body.id);
      return ok;
    },
  );

  r.delete('/v1/teams/:id/items/:kind/:itemId', { config: auth, schema: { tags, params: itemParams, response: responses(200, okSchema) } }, async (req) => {
    await teams.removeItem(ctx, callerOf(req), req.params.id, req.params.kind, req.params.itemId);
    return ok;
  });

  // ---- The spec's calls (§7), exactly. ----

  r.delete('/api_v1/teams/:id', { config: auth, schema: { tags, params: idParams, response: responses(200, okSchema) } }, async (req) => {
    await teams.deleteTeam(ctx, callerOf(req), req.params.id);
    return ok;
  });

  r.post(
    '/api_v1/teams/:id/invite',
    { config: auth, schema: { tags, params: idParams, body: specInviteBody, response: responses(201, z.object({ data: teamInviteSchema })) } },
    async (req, reply) => {
      if (req.body.parent.id !== req.params.id) throw new AppError(400, 'error/validation', 'parent.id must be the team of the path');
      return reply.status(201).send({ data: await teams.invite(ctx, callerOf(req), req.params.id, req.body.data, origin(req)) });
    },
  );

  r.post(
    '/api_v1/teams/:id/invite/accept',
    { config: auth, schema: { tags, params: idParams, body: acceptInviteBody, response: responses(200, one) } },
    async (req) => {
      const caller = callerOf(req);
      await teams.acceptInvite(ctx, caller, req.params.id, req.body?.token);
      return presentOne(caller, req.params.id);
    },
  );

  r.post(
    '/api_v1/teams/:id/invite/reject',
    { config: auth, schema: { tags, params: idParams, body: acceptInviteBody, response: responses(200, okSchema) } },
    async (req) => {
      await teams.rejectInvite(ctx, callerOf(req), req.params.id, req.body?.token);
      return ok;
    },
  );

  r.post('/api_v1/teams/:id/leave', { config: auth, schema: { tags, params: idParams, response: responses(200, okSchema) } }, async (req) => {
    await teams.leaveTeam(ctx, callerOf(req), req.params.id);
    return ok;
  });

  r.post(
    '/api_v1/teams/:id/remove',
    { config: auth, schema: { tags, params: idParams, body: specRemoveBody, response: responses(200, okSchema) } },
    async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      if ('member' in body) {
        await teams.removeMember(ctx, caller, req.params.id, typeof body.member === 'string' ? body.member : body.member.uid);
      } else {
        const ref = typeof body.invite === 'string' ? (body.invite.includes('@') ? { email: body.invite } : { id: body.invite }) : body.invite;
        await teams.cancelInvite(ctx, caller, req.params.id, ref);
      }
      return ok;
    },
  );
}
