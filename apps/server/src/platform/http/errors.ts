import { ErrorCode, type ErrorBody } from '@sightline/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../db/client.js';

/** A failure with a stable code and an HTTP status. Messages below 500 are shown to users. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
  }
}

export const errors = {
  validation: (message: string, details?: unknown) => new AppError(400, ErrorCode.Validation, message, details),
  unauthorized: (message = 'Sign in to continue', code: string = ErrorCode.Unauthorized) => new AppError(401, code, message),
  forbidden: (message = 'You do not have access to this resource') => new AppError(403, ErrorCode.Forbidden, message),
  notFound: (what = 'Resource') => new AppError(404, ErrorCode.NotFound, `${what} not found`),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  payloadTooLarge: (message = 'Request body is too large') => new AppError(413, ErrorCode.PayloadTooLarge, message),
  /** The database cannot be reached (restarting, or an external one is down): 503 with Retry-After (ADR 0024). */
  databaseUnavailable: () =>
    new AppError(503, ErrorCode.ServerOffline, `The database is not available right now. Try again in ${DATABASE_RETRY_AFTER_S} s.`, {
      retryAfter: DATABASE_RETRY_AFTER_S,
    }),
  // 403, not 507: a 5xx is retried by clients and proxies, and a full quota does not heal by retrying (ADR 0024).
  insufficientStorage: (available: number, required: number) =>
    new AppError(403, ErrorCode.InsufficientStorage, `Not enough storage: ${available} bytes available, ${required} required`, {
      available,
      required,
    }),
};

export function errorBody(code: string, message: string, requestId?: string, details?: unknown): ErrorBody {
  return { error: { code, message, ...(details !== undefined ? { details } : {}), ...(requestId ? { requestId } : {}) } };
}

/** The one error handler: stable codes out, internals of 5xx never leak. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.error({ err }, 'app error');
      const retryAfter = (err.details as { retryAfter?: unknown } | undefined)?.retryAfter;
      if ((err.statusCode === 429 || err.statusCode === 503) && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return reply.status(err.statusCode).send(errorBody(err.code, err.message, request.id, err.details));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Invalid value',
      }));
      const first = issues[0];
      const message = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'Invalid request';
      // A rejected password is its own code so the UI can say why (spec: weak password).
      const code =
        first && /(^|\.)(password|newPassword)$/.test(first.path) && request.url.includes('/signin') === false ? ErrorCode.WeakPassword : ErrorCode.Validation;
      return reply.status(400).send(errorBody(code, message, request.id, { issues }));
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(413).send(errorBody(ErrorCode.PayloadTooLarge, 'Request body is too large', request.id));
    }
    if (status === 429) return reply.status(429).send(errorBody(ErrorCode.RateLimited, err.message, request.id));
    if (status >= 400 && status < 500) {
      const code = status === 404 ? ErrorCode.NotFound : status === 401 ? ErrorCode.Unauthorized : status === 403 ? ErrorCode.Forbidden : ErrorCode.Validation;
      return reply.status(status).send(errorBody(code, err.message, request.id));
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      const unavailable = errors.databaseUnavailable();
      return reply.status(503).send(errorBody(unavailable.code, unavailable.message, request.id));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody(ErrorCode.Unknown, 'Something went wrong. Please try again later.', request.id));
  });
}
