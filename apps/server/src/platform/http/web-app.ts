import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sightline/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody } from './errors.js';
import { redactUrl } from './logging.js';

/** Serves the built SPA; unknown non-API GETs fall back to index.html (client-side routes). */
export function registerWebApp(app: FastifyInstance, webDist: string) {
  const index = path.join(webDist, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    // wildcard: files are looked up per request, so a rebuilt web app is served without a restart.
    void app.register(fastifyStatic, { root: webDist, wildcard: true, index: false, maxAge: '1h', immutable: false });
  }
  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').type('text/html').send(fs.createReadStream(index));
  if (hasWeb) app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  app.setNotFoundHandler((req, reply) => {
    const isApi = /^\/(v1|api|api_v1)(\/|$)/.test(req.url) || req.url === '/alive';
    if (req.method === 'GET' && !isApi && hasWeb) {
      if (req.url.startsWith('/assets/')) return reply.status(404).send(errorBody(ErrorCode.NotFound, 'Not found', req.id));
      return sendIndex(reply);
    }
    return reply.status(404).send(errorBody(ErrorCode.NotFound, `Route ${req.method} ${redactUrl(req.url.split('?')[0]!)} not found`, req.id));
  });
}
