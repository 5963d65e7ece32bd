import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteAccountBody, Messages, updateEmailBody, updateFeedbackBody, updatePasswordBody, updateProfileBody, userSchema } from '@sightline/contracts';
import { clearSessionCookie, requireSession, requireUser } from '../../platform/http/auth-context.js';
import { AppError } from '../../platform/http/errors.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { changeEmail, updatePassword } from '../auth/auth.service.js';
import { presentUser } from './users.presenter.js';
import { usersRepository } from './users.repository.js';
import * as users from './users.service.js';
import { signBlobUrl } from '../../platform/storage/signed-url.js';

const userEnvelope = z.object({ data: userSchema });
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

async function present(app: FastifyInstance, id: string) {
  const row = await usersRepository.byId(app.ctx.db, id);
  const identities = row ? await usersRepository.identities(app.ctx.db, id) : [];
  return presentUser(row!, identities.map((i) => i.provider));
}

export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get('/v1/users/me', { config: { auth: 'user' }, schema: { tags: ['users'], response: { 200: userEnvelope, ...errorResponses } } }, async (req) => {
    const { user } = requireUser(req);
    return { data: await present(app, user.id) };
  });

  r.patch('/v1/users/me', { config: { auth: 'user' }, schema: { tags: ['users'], body: updateProfileBody, response: { 200: userEnvelope, ...errorResponses } } }, async (req) => {
    const { user } = requireUser(req);
    await users.updateProfile(ctx, user, req.body);
    return { data: await present(app, user.id) };
  });

  r.post('/v1/users/me/password', { config: { auth: 'session' }, schema: { tags: ['users'], body: updatePasswordBody, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    const p = requireSession(req);
    await updatePassword(ctx, p.user, req.body.currentPassword, req.body.newPassword, p.sessionId);
    return ok;
  });

  r.post('/v1/users/me/email', { config: { auth: 'session' }, schema: { tags: ['users'], body: updateEmailBody, response: { 200: userEnvelope, ...errorResponses } } }, async (req) => {
    const p = requireSession(req);
    await changeEmail(ctx, p.user, req.body.email, req.body.password);
    return { data: await present(app, p.user.id) };
  });

  r.put('/v1/users/me/feedback', { config: { auth: 'user' }, schema: { tags: ['users'], body: updateFeedbackBody, response: { 200: userEnvelope, ...errorResponses } } }, async (req) => {
    const { user } = requireUser(req);
    await users.saveFeedback(ctx, user, req.body.rating, req.body.review);
    return { data: await present(app, user.id) };
  });

  r.post('/v1/users/me/image', { config: { auth: 'user' }, schema: { tags: ['users'], consumes: ['multipart/form-data'], response: { 200: userEnvelope, ...errorResponses } } }, async (req) => {
    const { user } = requireUser(req);
    const file = await req.file({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1 } });
    if (!file) throw new AppError(400, 'error/validation', 'Attach an image file in the `file` field');
    if (!IMAGE_TYPES.has(file.mimetype)) throw new AppError(400, 'error/invalid-image', Messages.invalidImage);
    const buffer = await file.toBuffer();
    if (file.file.truncated) throw new AppError(413, 'error/payload-too-large', 'Profile images can be at most 5 MB');
    const { default: sharp } = await import('sharp');
    let png: Buffer;
    try {
      png = await sharp(buffer).rotate().resize(256, 256, { fit: 'cover' }).png().toBuffer();
    } catch {
      throw new AppError(400, 'error/invalid-image', Messages.invalidImage);
    }
    const key = `users/${user.id}/profile/${newId()}.png`;
    await ctx.blobs.put(key, png, { contentType: 'image/png' });
    const url = signBlobUrl({ key, expiresAt: new Date('2100-01-01T00:00:00Z'), secret: ctx.secret, baseUrl: '' });
    await users.setProfileImage(ctx, user, url);
    return { data: await present(app, user.id) };
  });

  r.delete('/v1/users/me', { config: { auth: 'session' }, schema: { tags: ['users'], body: deleteAccountBody.optional(), response: { 200: okSchema, ...errorResponses } } }, async (req, reply) => {
    const p = requireSession(req);
    await users.deleteAccount(ctx, p.user, req.body?.password);
    clearSessionCookie(reply);
    return ok;
  });
}
