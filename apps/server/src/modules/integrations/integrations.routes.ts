import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  integrationSchema,
  integrationSettingsBody,
  integrationSettingsSchema,
  integrationsOverviewSchema,
  linkWorkspaceBody,
  replaceKeyBody,
  roboflowBrowseSchema,
  roboflowImportSchema,
  roboflowPreviewSchema,
  roboflowProjectDetailSchema,
  roboflowSyncResultSchema,
  subscribeBody,
  subscriptionSchema,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import * as svc from './integrations.service.js';

const slug = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][\w-]*$/);
const idParams = z.object({ id: z.string().max(40) });
const projectParams = z.object({ workspace: slug, project: slug });
const versionParams = projectParams.extend({ version: z.coerce.number().int().min(1).max(100_000) });
const data = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema });
const withUpstream = { ...errorResponses, 410: errorResponses[400], 429: errorResponses[400], 502: errorResponses[400], 504: errorResponses[400] };
const tags = ['integrations'];

/** Roboflow integration: link/replace/remove a workspace key, subscriptions, browse, import, re-sync. */
export async function integrationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const auth = { auth: 'user' as const };
  const uid = (req: Parameters<typeof requireUser>[0]) => requireUser(req).user.id;

  r.get('/v1/integrations', { config: auth, schema: { tags, response: { 200: data(integrationsOverviewSchema), ...errorResponses } } }, async (req) => ({
    data: await svc.overview(ctx, uid(req)),
  }));

  r.patch(
    '/v1/integrations/settings',
    { config: auth, schema: { tags, body: integrationSettingsBody, response: { 200: data(integrationSettingsSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.setSettings(ctx, uid(req), req.body),
    }),
  );

  r.post(
    '/v1/integrations/roboflow/workspaces',
    { config: auth, schema: { tags, body: linkWorkspaceBody, response: { 201: data(integrationSchema), ...withUpstream } } },
    async (req, reply) => reply.status(201).send({ data: await svc.linkWorkspace(ctx, uid(req), req.body.apiKey) }),
  );

  r.put(
    '/v1/integrations/:id/key',
    { config: auth, schema: { tags, params: idParams, body: replaceKeyBody, response: { 200: data(integrationSchema), ...withUpstream } } },
    async (req) => ({
      data: await svc.replaceKey(ctx, uid(req), req.params.id, req.body.apiKey),
    }),
  );

  r.delete('/v1/integrations/:id', { config: auth, schema: { tags, params: idParams, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    await svc.unlink(ctx, uid(req), req.params.id);
    return ok;
  });

  r.post(
    '/v1/integrations/roboflow/subscriptions',
    { config: auth, schema: { tags, body: subscribeBody, response: { 201: data(subscriptionSchema), ...withUpstream } } },
    async (req, reply) => reply.status(201).send({ data: await svc.subscribe(ctx, uid(req), req.body) }),
  );

  r.delete(
    '/v1/integrations/roboflow/subscriptions/:id',
    { config: auth, schema: { tags, params: idParams, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await svc.unsubscribe(ctx, uid(req), req.params.id);
      return ok;
    },
  );

  r.get(
    '/v1/integrations/roboflow/browse',
    { config: auth, schema: { tags, response: { 200: data(roboflowBrowseSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.browse(ctx, uid(req)),
    }),
  );

  r.get(
    '/v1/integrations/roboflow/projects/:workspace/:project',
    { config: auth, schema: { tags, params: projectParams, response: { 200: data(roboflowProjectDetailSchema), ...withUpstream } } },
    async (req) => ({
      data: await svc.projectDetail(ctx, uid(req), req.params.workspace, req.params.project),
    }),
  );

  r.get(
    '/v1/integrations/roboflow/projects/:workspace/:project/previews',
    { config: auth, schema: { tags, params: projectParams, response: { 200: data(z.array(roboflowPreviewSchema)), ...withUpstream } } },
    async (req) => ({
      data: await svc.previews(ctx, uid(req), req.params.workspace, req.params.project),
    }),
  );

  r.get('/v1/integrations/roboflow/projects/:workspace/:project/icon', { config: auth, schema: { tags, params: projectParams } }, async (req, reply) => {
    const icon = await svc.projectIcon(ctx, uid(req), req.params.workspace, req.params.project);
    return reply.header('cache-control', 'private, max-age=3600').type(icon.type).send(icon.bytes);
  });

  r.post(
    '/v1/integrations/roboflow/projects/:workspace/:project/versions/:version/import',
    { config: auth, schema: { tags, params: versionParams, response: { 200: data(roboflowImportSchema), 202: data(roboflowImportSchema), ...withUpstream } } },
    async (req, reply) => {
      const { workspace, project, version } = req.params;
      const result = await svc.startImport(ctx, uid(req), workspace, project, version);
      return reply.status(result.created ? 202 : 200).send({ data: result.import });
    },
  );

  r.post(
    '/v1/integrations/roboflow/projects/:workspace/:project/sync',
    { config: auth, schema: { tags, params: projectParams, response: { 200: data(roboflowSyncResultSchema), ...withUpstream } } },
    async (req) => ({
      data: await svc.sync(ctx, uid(req), req.params.workspace, req.params.project),
    }),
  );

  r.get(
    '/v1/integrations/roboflow/imports',
    { config: auth, schema: { tags, response: { 200: data(z.array(roboflowImportSchema)), ...errorResponses } } },
    async (req) => ({
      data: await svc.listImports(ctx, uid(req)),
    }),
  );

  r.post(
    '/v1/integrations/roboflow/imports/:id/cancel',
    { config: auth, schema: { tags, params: idParams, response: { 200: data(roboflowImportSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.cancelImport(ctx, uid(req), req.params.id),
    }),
  );

  r.post(
    '/v1/integrations/roboflow/imports/:id/retry',
    { config: auth, schema: { tags, params: idParams, response: { 200: data(roboflowImportSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.retryImport(ctx, uid(req), req.params.id),
    }),
  );
}
