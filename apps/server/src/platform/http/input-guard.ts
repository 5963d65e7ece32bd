import { ErrorCode, INPUT_LIMITS } from '@sightline/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * The one input guard of the API (ADR 0013), run before schema validation on every route:
 * - no string anywhere in the body, query, path parameters, multipart fields and file names, or tus
 *   upload metadata may contain U+0000 (PostgreSQL refuses it in text, and what cannot be stored
 *   must not get as far as a query): 400 naming the field;
 * - JSON nested deeper than `INPUT_LIMITS.jsonDepth` is refused with 400 before any recursive code
 *   (validation, jsonb encoding) walks it; body size stays Fastify's `bodyLimit` (413).
 * The walk is iterative, so the guard itself cannot overflow the stack.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    inspect(req.params, 'params');
    inspect(req.query, 'query');
    // A streamed body (agent artifacts, raw PUTs) is bytes, not fields: walking the stream object would refuse it.
    if (!isStream(req.body)) inspect(req.body, 'body');
    const meta = req.headers['upload-metadata'];
    if (typeof meta === 'string') inspectTusMetadata(meta);
    if (req.isMultipart?.()) {
      // busboy throws a plain error for a missing boundary, which answered 500 (ADR 0024)
      if (!/;\s*boundary=("[^"]+"|[^\s;]+)/i.test(req.headers['content-type'] ?? '')) {
        throw new AppError(
          400,
          ErrorCode.Validation,
          'multipart/form-data needs a boundary: Content-Type: multipart/form-data; boundary=<the separator used in the body>',
        );
      }
      guardMultipart(req);
    }
  });
}

/** The limits of every multipart reader unless its route sets its own (fields, files, parts, field size). */
export const MULTIPART_LIMITS = { fields: 20, files: 1, parts: 1000, fieldSize: 64 * 1024 };

/**
 * A multipart body the client got wrong, as its 4xx (ADR 0024): @fastify/multipart's limits and
 * busboy's parse errors are plain errors, which answered 500. Null for anything else.
 */
export function multipartClientError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = (err ?? {}) as { code?: string; message?: string };
  const tooMany = (what: string) => new AppError(413, ErrorCode.PayloadTooLarge, `Too many ${what} in the multipart body`);
  switch (e.code) {
    case 'FST_FIELDS_LIMIT':
      return tooMany('form fields');
    case 'FST_FILES_LIMIT':
      return tooMany('files (send one)');
    case 'FST_PARTS_LIMIT':
      return tooMany('parts');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(413, ErrorCode.PayloadTooLarge, 'The file is too large');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(415, ErrorCode.Validation, 'Send multipart/form-data');
    case 'FST_PROTO_VIOLATION':
    case 'FST_MP_PREMATURE_CLOSE':
      return new AppError(400, ErrorCode.Validation, e.message ?? 'Malformed multipart body');
  }
  if (/^(Multipart: |Unexpected end of |Malformed |Part terminated early|Missing boundary)/i.test(e.message ?? '')) {
    return new AppError(400, ErrorCode.Validation, `Malformed multipart body: ${e.message}`);
  }
  return null;
}

/** Marks a stream error that is the client's mistake with its 4xx status, so the error handler answers it (not 500). */
function markClientError(err: unknown) {
  const client = multipartClientError(err);
  if (!client || client === err || !err || typeof err !== 'object') return;
  Object.assign(err, { statusCode: client.statusCode, message: client.message });
}

const refuse = (field: string, message: string) => new AppError(400, ErrorCode.Validation, `${field}: ${message}`, { issues: [{ path: field, message }] });
const NUL_MESSAGE = 'must not contain a NUL character (\\u0000)';

/** Throws a 400 for the first NUL-bearing string or over-deep nesting under `root`. */
export function inspect(value: unknown, root: string) {
  if (value === null || value === undefined) return;
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) throw refuse(path, NUL_MESSAGE);
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth >= INPUT_LIMITS.jsonDepth) throw refuse(path, `is nested more than ${INPUT_LIMITS.jsonDepth} levels deep`);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}.${i}`, depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      if (key.includes('\0')) throw refuse(`${path}.${key.replace(/\0/g, '\\u0000')}`, 'key ' + NUL_MESSAGE);
      stack.push({ v: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
}

const isStream = (v: unknown) => typeof (v as { pipe?: unknown } | null)?.pipe === 'function';

/** tus `Upload-Metadata`: `key base64,key base64`; the file name the client sends travels here. */
function inspectTusMetadata(header: string) {
  for (const pair of header.split(',')) {
    const [key = '', encoded = ''] = pair.trim().split(' ');
    if (key.includes('\0') || Buffer.from(encoded, 'base64').toString('utf8').includes('\0'))
      throw refuse(`Upload-Metadata.${key.replace(/\0/g, '')}`, NUL_MESSAGE);
  }
}

type Part = { type?: string; fieldname?: string; filename?: string; value?: unknown; file?: NodeJS.ReadableStream; toBuffer?: () => Promise<Buffer> };
type MultipartRequest = {
  parts: (opts?: unknown) => AsyncIterableIterator<Part>;
  file: (opts?: unknown) => Promise<Part | undefined>;
  files: (opts?: unknown) => AsyncIterableIterator<Part>;
};

/**
 * Multipart bodies are read by the handlers as streams, after this hook: wrap this request's readers
 * so every part is checked as it arrives (file name, field name and field value).
 */
function guardMultipart(request: FastifyRequest) {
  const req = request as unknown as MultipartRequest;
  const original = req.parts.bind(req);
  const checked = async function* (opts?: unknown) {
    const given = (opts ?? {}) as { limits?: Record<string, number> };
    const parts = original({ ...given, limits: { ...MULTIPART_LIMITS, ...given.limits } });
    let finished = false;
    try {
      for (;;) {
        let next: IteratorResult<Part>;
        try {
          next = await parts.next();
        } catch (err) {
          finished = true;
          throw multipartClientError(err) ?? err;
        }
        if (next.done) {
          finished = true;
          return;
        }
        yield checkPart(next.value);
      }
    } finally {
      // The reader stopped early (its own error, or it had what it needed): close the parser as for-await would.
      if (!finished) await parts.return?.(undefined);
    }
  };
  const checkPart = (part: Part) => {
    part.file?.on('error', markClientError);
    const read = part.toBuffer?.bind(part);
    if (read) {
      part.toBuffer = () =>
        read().catch((err: unknown) => {
          throw multipartClientError(err) ?? err;
        });
    }
    const field = part.fieldname ?? 'file';
    try {
      if (field.includes('\0')) throw refuse(`multipart.${field.replace(/\0/g, '\\u0000')}`, 'field name ' + NUL_MESSAGE);
      if (typeof part.filename === 'string' && part.filename.includes('\0')) throw refuse(`${field}.filename`, NUL_MESSAGE);
      if (part.type === 'field') inspect(part.value, field);
    } catch (err) {
      part.file?.resume(); // let the rest of the request drain so the 400 can be sent
      throw err;
    }
    return part;
  };
  req.parts = checked;
  req.files = async function* (opts?: unknown) {
    for await (const part of checked(opts)) if (part.file) yield part;
  };
  // One file: the rest of the body is read after the file's bytes, so a second file is a 413, not ignored.
  req.file = async (opts?: unknown) => {
    const parts = checked(opts);
    for (;;) {
      const next = await parts.next();
      if (next.done) return undefined;
      const part = next.value;
      if (!part.file) continue;
      const toBuffer = part.toBuffer?.bind(part);
      if (toBuffer) {
        part.toBuffer = async () => {
          const bytes = await toBuffer();
          for (let more = await parts.next(); !more.done; more = await parts.next()) {
            if (more.value.file) {
              more.value.file.resume();
              throw new AppError(413, ErrorCode.PayloadTooLarge, 'Too many files in the multipart body (send one)');
            }
          }
          return bytes;
        };
      }
      return part;
    }
  };
}
