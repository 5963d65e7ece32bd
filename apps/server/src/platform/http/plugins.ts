import { parse as parseQuery } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { OPENAPI_TAGS } from './openapi-tags.js';
import { securityHeaders } from './security-headers.js';

/** The HTTP plugins every route relies on: security headers, compression, cookies, multipart, websockets, forms, the OpenAPI document. */
export async function registerHttpPlugins(app: FastifyInstance, config: Config, secret: string) {
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:', ...(config.sentry ? [new URL(config.sentry.webDsn).origin] : [])],
        mediaSrc: ["'self'", 'blob:'],
        // The SPA must load inside same-origin frames so it can show /403 there (spec §2); /403 itself
        // may be framed by any site (security-headers.ts FRAMEABLE_PATHS).
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'sameorigin' },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl?.startsWith('https://') ? undefined : false,
  });
  // gzip/brotli for the web app's assets and JSON; binary blobs (zip, weights, images) are not compressible types.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: /^(text\/(html|css|plain)|application\/(json|javascript)|image\/svg\+xml)(;|$)/,
  });
  await app.register(cookie, { secret });
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024 * 1024, files: 1, fields: 20 } });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // Apple's sign-in callback posts a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, parseQuery(body as string)),
  );

  await app.register(swagger, {
    openapi: {
      info: { title: 'Sightline API', version: config.appVersion, description: 'Self-hosted computer-vision hub. Responses use the `{ data }` envelope.' },
      tags: [...OPENAPI_TAGS],
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' }, session: { type: 'apiKey', in: 'cookie', name: 'sl_session' } },
      },
    },
    transform: documentMultipart,
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });
}

/**
 * zod's transform, plus a body for multipart operations (`consumes: ['multipart/form-data']`, read
 * as streams, so no body schema): the document lists them as multipart, which the malformed-request
 * test walks (ADR 0024).
 */
const documentMultipart: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const consumes = (input.schema as { consumes?: string[] } | undefined)?.consumes;
  if (!consumes?.includes('multipart/form-data') || (out.schema as { body?: unknown }).body) return out;
  return { ...out, schema: { ...out.schema, body: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } };
};
