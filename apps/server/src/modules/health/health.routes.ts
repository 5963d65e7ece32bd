import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Connectivity check of spec §7/§9: cheap, no auth, no database. */
export async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/alive', { logLevel: 'warn', schema: { tags: ['health'], response: { 200: z.object({ data: z.object({ ok: z.literal(true), time: z.string() }) }) } } }, async () => ({
    data: { ok: true as const, time: new Date().toISOString() },
  }));
  r.get('/ready', { logLevel: 'warn', schema: { tags: ['health'] } }, async (_req, reply) => {
    try {
      await app.ctx.database.query('SELECT 1');
      return { data: { ok: true } };
    } catch {
      return reply.status(503).send({ error: { code: 'error/server-offline', message: 'Database unavailable' } });
    }
  });
}
