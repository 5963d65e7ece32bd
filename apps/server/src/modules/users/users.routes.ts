import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, Messages, updateFeedbackBody, updateProfileBody, userSchema } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError } from '../../platform/http/errors.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { intakeImage } from '../../platform/images/svg.js';
import * as users from './users.service.js';
import { presentUserById as present } from './users.service.js';

const userEnvelope = z.object({ data: userSchema });
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml']);
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get('/v1/users/me', { config: { auth: 'user' }, schema: { tags: ['users'], response: { 200: userEnvelope, ...errorResponses } } }, async (req) => {
    const { user } = requireUser(req);
    return { data: await users.presentMe(ctx, user) };
  });

  // Who is here, asked by the web app on every page: 200 with null when signed out (or the session
  // is gone), so a signed-out page does not log a failed request (ADR 0030). /v1/users/me keeps its 401.
  r.get(
    '/v1/auth/session',
    { schema: { tags: ['auth'], response: { 200: z.object({ data: z.object({ user: userSchema.nullable() }) }), ...errorResponses } } },
    async (req) => ({
      data: { user: req.principal ? await users.presentMe(ctx, req.principal.user) : null },
    }),
  );

  r.patch(
    '/v1/users/me',
    { config: { auth: 'user' }, schema: { tags: ['users'], body: updateProfileBody, response: { 200: userEnvelope, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await users.updateProfile(ctx, user, req.body);
      return { data: await present(app, user.id) };
    },
  );

  r.put(
    '/v1/users/me/feedback',
    { config: { auth: 'user' }, schema: { tags: ['users'], body: updateFeedbackBody, response: { 200: userEnvelope, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await users.saveFeedback(ctx, user, req.body.rating, req.body.review);
      return { data: await present(app, user.id) };
    },
  );

  r.post(
    '/v1/users/me/image',
    { config: { auth: 'user' }, schema: { tags: ['users'], consumes: ['multipart/form-data'], response: { 200: userEnvelope, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const file = await req.file({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1 } });
      if (!file) throw new AppError(400, ErrorCode.Validation, 'Attach an image file in the `file` field');
      if (!IMAGE_TYPES.has(file.mimetype)) throw new AppError(400, ErrorCode.InvalidImage, Messages.invalidImage);
      const buffer = await file.toBuffer();
      if (file.file.truncated) throw new AppError(413, ErrorCode.PayloadTooLarge, 'Profile images can be at most 5 MB');
      // An SVG is checked, cleaned and drawn into a PNG first (platform/images/svg.ts).
      await users.setProfileImage(ctx, user, (await intakeImage({ bytes: buffer, contentType: file.mimetype, filename: file.filename })).bytes);
      return { data: await present(app, user.id) };
    },
  );
}
