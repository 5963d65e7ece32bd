import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@sightline/contracts';
import { z } from 'zod';
import { AppError } from '../../platform/http/errors.js';
import { MULTIPART_LIMITS, multipartClientError } from '../../platform/http/input-guard.js';
import { readSmallMultipart } from '../../platform/http/small-multipart.js';

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const IMAGE_MAGIC: Array<[number[], string]> = [
  [[0xff, 0xd8, 0xff], 'jpeg'],
  [[0x89, 0x50, 0x4e, 0x47], 'png'],
  [[0x52, 0x49, 0x46, 0x46], 'webp'],
  [[0x42, 0x4d], 'bmp'],
  [[0x47, 0x49, 0x46], 'gif'],
];

/** Bounds of the HUB inference API (product notes). */
export const predictFields = z.object({
  imgsz: z.coerce.number().int().min(32, 'imgsz must be between 32 and 1280').max(1280, 'imgsz must be between 32 and 1280').default(640),
  conf: z.coerce.number().min(0.01, 'conf must be between 0.01 and 1.0').max(1, 'conf must be between 0.01 and 1.0').default(0.25),
  iou: z.coerce.number().min(0, 'iou must be between 0.0 and 0.95').max(0.95, 'iou must be between 0.0 and 0.95').default(0.45),
});

const PREDICT_LIMITS = { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10 };
/** Bodies up to this size are read in one piece (readSmallMultipart); larger ones stream through busboy. */
const SMALL_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Reads the multipart body: `file` (the image) and the fields; every bad input gets its own code. A body of up to
 * 4 MB in the canonical form is split in one piece, without busboy (ADR 0041); any other body, a malformed one
 * included, goes through `req.parts()` as before, with the same answers.
 */
export async function readPredictRequest(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError(400, ErrorCode.Validation, 'Send multipart/form-data with an image in the `file` field');
  const fields: Record<string, string> = {};
  let image: Buffer | null = null;
  const small = await readSmallMultipart(req.raw, { ...MULTIPART_LIMITS, ...PREDICT_LIMITS, maxBytes: SMALL_BODY_BYTES }).catch((err: unknown) => {
    throw multipartClientError(err) ?? err;
  });
  if (small) {
    for (const part of small) {
      if (part.filename === undefined) fields[part.name] = part.data.toString('latin1');
      else if (part.name === 'file') image = part.data;
    }
  } else {
    image = await readParts(req, fields);
  }
  return checkPredictRequest(image, fields);
}

async function readParts(req: FastifyRequest, fields: Record<string, string>): Promise<Buffer | null> {
  let image: Buffer | null = null;
  for await (const part of req.parts({ limits: PREDICT_LIMITS })) {
    if (part.type === 'file') {
      const buf = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError(413, ErrorCode.PayloadTooLarge, `Images can be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
        throw err;
      });
      if (part.fieldname === 'file') image = buf;
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  return image;
}

function checkPredictRequest(image: Buffer | null, fields: Record<string, string>) {
  if (!image || image.length === 0) throw new AppError(400, ErrorCode.Validation, 'Attach an image in the `file` field');
  if (!IMAGE_MAGIC.some(([magic]) => magic.every((b, i) => image![i] === b))) {
    throw new AppError(400, ErrorCode.InvalidImage, 'The file is not an image (JPEG, PNG, WebP or BMP)');
  }
  const parsed = predictFields.safeParse(fields);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new AppError(400, ErrorCode.Validation, first.message, { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
  }
  return { image, params: parsed.data };
}
