import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@sightline/contracts';
import { z } from 'zod';
import { AppError } from '../../platform/http/errors.js';

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

/** Reads the multipart body: `file` (the image) and the fields; every bad input gets its own code. */
export async function readPredictRequest(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError(400, ErrorCode.Validation, 'Send multipart/form-data with an image in the `file` field');
  const fields: Record<string, string> = {};
  let image: Buffer | null = null;
  for await (const part of req.parts({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10 } })) {
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
