import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AGENT_TOKEN_HEADER,
  agentClaimQuery,
  agentClaimResponse,
  agentFinishBody,
  agentHeartbeatBody,
  agentHeartbeatResponse,
  agentJobAck,
  agentJobSummarySchema,
  agentLogBody,
  agentRegisterBody,
  agentRegisterResponse,
  agentSchema,
  cloudEstimateSchema,
  cloudRunSchema,
  cloudTrainingBody,
  createAgentBody,
  createdAgentSchema,
  envelope,
  gpuTypeBody,
  gpuTypeSchema,
  jobLogSchema,
} from '@sightline/contracts';
import { requireAdmin, requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { baseUrlFor } from '../../platform/http/signed-links.js';
import {
  agentByToken,
  appendLog,
  claimForAgent,
  createAgent,
  deleteGpuType,
  finishJob,
  gpuTypesWithAvailability,
  heartbeat,
  heartbeatMs,
  jobLog,
  leaseMs,
  listActiveJobs,
  listAgents,
  markRunning,
  register,
  requestCancel,
  revokeAgent,
  saveGpuType,
  stopWaiting,
  sweep,
} from './agents.service.js';
import { cloudRun, estimate, startCloudTraining, stopCloudRun } from './cloud-training.service.js';
import { presentAgent, presentCloudRun, presentGpuType, presentJob } from './agents.presenter.js';

const idParams = z.object({ id: z.string().max(40) });
const tags = ['agents'];

/**
 * The agent wire protocol (x-agent-token), agent tokens for admins (shared pool) and users (private
 * agents), GPU types, agent jobs (log, cancel) and cloud training of a model.
 */
export async function agentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const agentOf = (req: FastifyRequest) => agentByToken(ctx, req.headers[AGENT_TOKEN_HEADER] as string | undefined);
  const caller = (req: FastifyRequest) => requireUser(req).user;

  // Leases run out while nobody polls too (a lone agent killed with kill -9): sweep on a timer.
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    stopWaiting(false);
    timer = setInterval(
      () => void sweep(ctx, true).catch((err: unknown) => app.log.warn({ err }, 'agent job sweep failed')),
      Math.max(500, Math.floor(leaseMs(ctx) / 4)),
    );
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    stopWaiting(true);
  });

  // ---- wire protocol

  r.post('/v1/agents/register', { schema: { tags, body: agentRegisterBody, response: { 200: agentRegisterResponse, ...errorResponses } } }, async (req) => {
    const { agent, recovered } = await register(ctx, await agentOf(req), req.body);
    return { data: { agentId: agent.id, name: agent.name, heartbeatMs: heartbeatMs(ctx), leaseMs: leaseMs(ctx), gpuType: agent.gpuTypeId, recovered } };
  });

  r.post('/v1/agents/heartbeat', { schema: { tags, body: agentHeartbeatBody, response: { 200: agentHeartbeatResponse, ...errorResponses } } }, async (req) => ({
    data: await heartbeat(ctx, await agentOf(req), req.body.jobs),
  }));

  r.post('/v1/agents/claim', { schema: { tags, querystring: agentClaimQuery, response: { 200: agentClaimResponse, ...errorResponses } } }, async (req) => {
    const agent = await agentOf(req);
    const aborted = new AbortController();
    req.raw.once('close', () => aborted.abort());
    return { data: await claimForAgent(ctx, agent, req.query.waitMs, baseUrlFor(ctx, req), aborted.signal) };
  });

  r.post('/v1/agents/jobs/:id/start', { schema: { tags, params: idParams, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    await markRunning(ctx, await agentOf(req), req.params.id);
    return ok;
  });

  r.post(
    '/v1/agents/jobs/:id/log',
    { bodyLimit: 2 * 1024 * 1024, schema: { tags, params: idParams, body: agentLogBody, response: { 200: agentJobAck, ...errorResponses } } },
    async (req) => ({
      data: await appendLog(ctx, await agentOf(req), req.params.id, req.body.seq, req.body.content),
    }),
  );

  r.post(
    '/v1/agents/jobs/:id/finish',
    { schema: { tags, params: idParams, body: agentFinishBody, response: { 200: envelope(agentJobSummarySchema), ...errorResponses } } },
    async (req) => ({
      data: presentJob(await finishJob(ctx, await agentOf(req), req.params.id, req.body)),
    }),
  );

  // ---- agents and tokens

  r.get(
    '/v1/agents',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        querystring: z.object({ scope: z.enum(['all', 'mine']).default('mine') }),
        response: { 200: envelope(z.array(agentSchema)), ...errorResponses },
      },
    },
    async (req) => ({
      data: (await listAgents(ctx, caller(req), req.query.scope)).map((a) => presentAgent(a.row, a.online, a.currentJob)),
    }),
  );

  r.post(
    '/v1/agents',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        body: createAgentBody.extend({ shared: z.boolean().default(false) }),
        response: { 201: envelope(createdAgentSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { row, token } = await createAgent(ctx, caller(req), req.body);
      return reply.status(201).send({ data: { agent: presentAgent(row, false, null), token } });
    },
  );

  r.delete('/v1/agents/:id', { config: { auth: 'user' }, schema: { tags, params: idParams, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    await revokeAgent(ctx, caller(req), req.params.id);
    return ok;
  });

  // ---- GPU types

  r.get('/v1/gpu-types', { config: { auth: 'user' }, schema: { tags, response: { 200: envelope(z.array(gpuTypeSchema)), ...errorResponses } } }, async () => ({
    data: (await gpuTypesWithAvailability(ctx)).filter((t) => t.row.enabled).map((t) => presentGpuType(t.row, t.online)),
  }));
  r.get(
    '/v1/admin/gpu-types',
    { config: { auth: 'admin' }, schema: { tags, response: { 200: envelope(z.array(gpuTypeSchema)), ...errorResponses } } },
    async () => ({
      data: (await gpuTypesWithAvailability(ctx)).map((t) => presentGpuType(t.row, t.online)),
    }),
  );
  r.put(
    '/v1/admin/gpu-types',
    { config: { auth: 'admin' }, schema: { tags, body: gpuTypeBody, response: { 200: envelope(gpuTypeSchema), ...errorResponses } } },
    async (req) => ({
      data: presentGpuType(await saveGpuType(ctx, req.body), 0),
    }),
  );
  r.delete(
    '/v1/admin/gpu-types/:id',
    { config: { auth: 'admin' }, schema: { tags, params: idParams, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await deleteGpuType(ctx, req.params.id);
      return ok;
    },
  );

  // ---- jobs

  r.get(
    '/v1/admin/agent-jobs',
    { config: { auth: 'admin' }, schema: { tags, response: { 200: envelope(z.array(agentJobSummarySchema)), ...errorResponses } } },
    async (req) => {
      requireAdmin(req);
      return { data: (await listActiveJobs(ctx)).map(({ job, modelName }) => ({ ...presentJob(job), modelName })) };
    },
  );
  r.get(
    '/v1/agent-jobs/:id/log',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        params: idParams,
        querystring: z.object({ after: z.coerce.number().int().min(-1).default(-1) }),
        response: { 200: envelope(jobLogSchema), ...errorResponses },
      },
    },
    async (req) => ({
      data: await jobLog(ctx, caller(req), req.params.id, req.query.after),
    }),
  );
  r.post(
    '/v1/agent-jobs/:id/cancel',
    { config: { auth: 'user' }, schema: { tags, params: idParams, response: { 200: envelope(agentJobSummarySchema), ...errorResponses } } },
    async (req) => ({
      data: presentJob(await requestCancel(ctx, caller(req), req.params.id)),
    }),
  );

  // ---- cloud training of a model

  r.post(
    '/v1/models/:id/cloud/estimate',
    {
      config: { auth: 'user' },
      schema: { tags, params: idParams, body: cloudTrainingBody, response: { 200: envelope(cloudEstimateSchema), ...errorResponses } },
    },
    async (req) => ({
      data: (await estimate(ctx, caller(req), req.params.id, req.body)).estimate,
    }),
  );
  r.post(
    '/v1/models/:id/cloud/train',
    {
      config: { auth: 'session' },
      schema: { tags, params: idParams, body: cloudTrainingBody, response: { 201: envelope(cloudRunSchema), ...errorResponses } },
    },
    async (req, reply) => {
      const job = await startCloudTraining(ctx, caller(req), req.params.id, req.body);
      return reply.status(201).send({ data: presentCloudRun(job) });
    },
  );
  r.get(
    '/v1/models/:id/cloud',
    { schema: { tags, params: idParams, response: { 200: envelope(cloudRunSchema.nullable()), ...errorResponses } } },
    async (req) => {
      const job = await cloudRun(ctx, req.principal?.user.id ?? null, req.params.id);
      return { data: job ? presentCloudRun(job) : null };
    },
  );
  r.post(
    '/v1/models/:id/cloud/stop',
    { config: { auth: 'user' }, schema: { tags, params: idParams, response: { 200: envelope(cloudRunSchema), ...errorResponses } } },
    async (req) => ({
      data: presentCloudRun(await stopCloudRun(ctx, caller(req), req.params.id)),
    }),
  );
}
