import { ErrorCode, INPUT_LIMITS } from '@sightline/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * The one input guard of the API (issue 16), run before schema validation on every route:
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
    if (req.isMultipart?.()) guardMultipart(req);
  });
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
    if (key.includes('\0') || Buffer.from(encoded, 'base64').toString('utf8').includes('\0')) throw refuse(`Upload-Metadata.${key.replace(/\0/g, '')}`, NUL_MESSAGE);
  }
}

type Part = { type?: string; fieldname?: string; filename?: string; value?: unknown; file?: NodeJS.ReadableStream };
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
    for await (const part of original(opts)) {
      const field = part.fieldname ?? 'file';
      try {
        if (field.includes('\0')) throw refuse(`multipart.${field.replace(/\0/g, '\\u0000')}`, 'field name ' + NUL_MESSAGE);
        if (typeof part.filename === 'string' && part.filename.includes('\0')) throw refuse(`${field}.filename`, NUL_MESSAGE);
        if (part.type === 'field') inspect(part.value, field);
      } catch (err) {
        part.file?.resume(); // let the rest of the request drain so the 400 can be sent
        throw err;
      }
      yield part;
    }
  };
  req.parts = checked;
  req.files = async function* (opts?: unknown) {
    for await (const part of checked(opts)) if (part.file) yield part;
  };
  req.file = async (opts?: unknown) => {
    for await (const part of checked(opts)) if (part.file) return part;
    return undefined;
  };
}
