import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@sightline/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '../../platform/http/schemas.js';
import { healthRepository } from './health.repository.js';

/** Connectivity check of spec §7/§9: cheap, no auth, no database. */
export async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/alive',
    { logLevel: 'warn', schema: { tags: ['health'], response: { 200: z.object({ data: z.object({ ok: z.literal(true), time: z.string() }) }) } } },
    async () => ({
      data: { ok: true as const, time: new Date().toISOString() },
    }),
  );
  r.get(
    '/ready',
    { logLevel: 'warn', schema: { tags: ['health'], response: { 200: z.object({ data: z.object({ ok: z.boolean() }) }), 503: errorSchema } } },
    async (_req, reply) => {
      try {
        await healthRepository.ping(app.ctx.database);
        return { data: { ok: true } };
      } catch {
        return reply.status(503).send({ error: { code: ErrorCode.ServerOffline, message: 'Database unavailable' } });
      }
    },
  );
}
