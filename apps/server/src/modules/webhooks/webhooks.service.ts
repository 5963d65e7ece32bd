import { createHmac, randomBytes } from 'node:crypto';
import {
  ErrorCode,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  webhookSignedPayload,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WebhookEventName,
  type WebhookPayload,
} from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import type { JobRow } from '../../platform/jobs/job-queue.js';
import { secretBox } from '../integrations/secret-box.js';
import { postJson, resolveTarget, UrlRefused, type Resolver } from './webhooks.net.js';
import { webhooksPolicy, type Actor } from './webhooks.policy.js';
import { webhooksRepository, type DeliveryRow, type WebhookRow } from './webhooks.repository.js';

export const DELIVER_QUEUE = 'webhooks.deliver';
const MAX_PER_USER = 20;

const box = (ctx: Pick<AppContext, 'secret'>) => secretBox(ctx.secret, 'sightline/webhooks/signing-secret');

/** Test seam: the DNS resolver used for webhook hosts (the system resolver unless a test sets one). */
const resolvers = new WeakMap<object, Resolver>();
export function setResolver(ctx: AppContext, resolver: Resolver | null) {
  if (resolver) resolvers.set(ctx, resolver);
  else resolvers.delete(ctx);
}

/** HMAC-SHA256 (hex) over `${timestamp}.${body}`: the recipe documented for receivers. */
export function signatureHeader(secret: string, timestamp: number, body: string) {
  const v1 = createHmac('sha256', secret).update(webhookSignedPayload(timestamp, body)).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** Delay before attempt n+1 after n failed attempts: base, 2·base, 4·base… capped at 12 hours. */
export function retryDelayMs(ctx: Pick<AppContext, 'config'>, failedAttempts: number) {
  return Math.min(12 * 3_600_000, ctx.config.webhooks.retryBaseMs * 2 ** (failedAttempts - 1));
}

export async function allowPrivateUrls(ctx: Pick<AppContext, 'db'>) {
  return (await webhooksRepository.settings(ctx.db))?.allowPrivateUrls ?? false;
}

async function checkedUrl(ctx: AppContext, url: string) {
  try {
    await resolveTarget(url, { allowPrivate: await allowPrivateUrls(ctx), resolver: resolvers.get(ctx) });
  } catch (err) {
    if (err instanceof UrlRefused) throw new AppError(400, ErrorCode.WebhookUrlRefused, err.message);
    throw err;
  }
  return url;
}

// ---- endpoints ---------------------------------------------------------------------------------

export async function list(ctx: AppContext, userId: string) {
  return webhooksRepository.ofUser(ctx.db, userId);
}

export async function listAll(ctx: AppContext) {
  return webhooksRepository.all(ctx.db, 500);
}

export async function lastDeliveries(ctx: AppContext, ids: string[]) {
  return new Map((await webhooksRepository.lastDeliveries(ctx.db, ids)).map((d) => [d.webhookId, d]));
}

/** Registers an endpoint; the answer carries the signing secret, which is never shown again. */
export async function create(
  ctx: AppContext,
  actor: Actor,
  body: { url: string; events: WebhookEventName[]; description?: string | null; scope: CreateWebhookBody['scope'] },
) {
  webhooksPolicy.create(actor, body.scope ?? 'own');
  if ((await webhooksRepository.ofUser(ctx.db, actor.id)).length >= MAX_PER_USER) throw errors.validation(`At most ${MAX_PER_USER} webhooks per account`);
  const url = await checkedUrl(ctx, body.url);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const id = newId();
  const now = ctx.clock.now();
  await webhooksRepository.insert(ctx.db, {
    id,
    userId: actor.id,
    url,
    description: body.description ?? null,
    events: [...new Set(body.events)],
    scope: body.scope ?? 'own',
    secretEnc: box(ctx).seal(secret, id),
    active: true,
    createdAt: now,
    updatedAt: now,
  });
  return { row: (await webhooksRepository.byIdWithOwner(ctx.db, id))!, secret };
}

export async function update(ctx: AppContext, actor: Actor, id: string, patch: UpdateWebhookBody) {
  webhooksPolicy.manage(actor, await webhooksRepository.byId(ctx.db, id));
  const url = patch.url !== undefined ? await checkedUrl(ctx, patch.url) : undefined;
  await webhooksRepository.update(ctx.db, id, {
    ...(url !== undefined ? { url } : {}),
    ...(patch.events ? { events: [...new Set(patch.events)] } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.active !== undefined ? { active: patch.active } : {}),
    updatedAt: ctx.clock.now(),
  });
  return (await webhooksRepository.byIdWithOwner(ctx.db, id))!;
}

export async function remove(ctx: AppContext, actor: Actor, id: string) {
  webhooksPolicy.manage(actor, await webhooksRepository.byId(ctx.db, id));
  await webhooksRepository.remove(ctx.db, id);
}

/** A keyset page of a webhook's deliveries, newest first (ADR 0042): any page costs what the first does. */
export async function deliveries(ctx: AppContext, actor: Actor, id: string, q: { cursor?: string; limit?: number } = {}) {
  webhooksPolicy.manage(actor, await webhooksRepository.byId(ctx.db, id));
  const limit = q.limit ?? 50;
  return page(ctx, limit, await webhooksRepository.deliveriesOf(ctx.db, id, limit + 1, q.cursor ? decodeCursor(q.cursor) : null));
}

/** Every webhook's deliveries (admin), newest first, in keyset pages as above. */
export async function recentDeliveries(ctx: AppContext, q: { cursor?: string; limit?: number } = {}) {
  const limit = q.limit ?? 100;
  return page(ctx, limit, await webhooksRepository.recentDeliveries(ctx.db, limit + 1, q.cursor ? decodeCursor(q.cursor) : null));
}

async function page(ctx: AppContext, limit: number, rows: DeliveryRow[]) {
  const items = rows.slice(0, limit);
  return { items: await withAttempts(ctx, items), nextCursor: rows.length > limit ? encodeCursor(items.at(-1)!.id) : null };
}

/** The cursor names the page's last delivery (base64url, opaque); one that does not decode is a 400. */
const encodeCursor = (id: string) => Buffer.from(JSON.stringify([id])).toString('base64url');
function decodeCursor(cursor: string): string {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') return v[0];
  } catch {
    /* falls through to the 400 */
  }
  throw errors.validation('cursor must be the nextCursor of a previous page', { field: 'cursor' });
}

async function withAttempts(ctx: AppContext, rows: DeliveryRow[]) {
  const attempts = await webhooksRepository.attemptsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((d) => ({ ...d, attemptLog: attempts.filter((a) => a.deliveryId === d.id) }));
}

/** Sends a delivery's payload again as a new delivery (its own attempts, same event id). */
export async function redeliver(ctx: AppContext, actor: Actor, webhookId: string, deliveryId: string) {
  const hook = webhooksPolicy.manage(actor, await webhooksRepository.byId(ctx.db, webhookId));
  const original = await webhooksRepository.delivery(ctx.db, deliveryId);
  if (!original || original.webhookId !== hook.id) throw new AppError(404, ErrorCode.NotFound, 'Delivery not found');
  const now = ctx.clock.now();
  const [row] = await webhooksRepository.insertDeliveries(ctx.db, [
    {
      id: newId(),
      webhookId: hook.id,
      event: original.event,
      eventId: original.eventId,
      payload: original.payload,
      status: 'pending',
      redeliveryOf: original.id,
      createdAt: now,
      updatedAt: now,
      nextAttemptAt: now,
    },
  ]);
  await enqueueAttempt(ctx, row!.id, 1, now);
  return (await withAttempts(ctx, [row!]))[0]!;
}

export async function settings(ctx: AppContext) {
  return { allowPrivateUrls: await allowPrivateUrls(ctx) };
}

export async function setSettings(ctx: AppContext, by: string, allow: boolean) {
  await webhooksRepository.setSettings(ctx.db, allow, by, ctx.clock.now());
  return settings(ctx);
}

// ---- fan-out and delivery ----------------------------------------------------------------------

/** A webhook event of an owner's item (ADR 0031): one delivery per endpoint that hears it, each sent by a job. */
export async function onDomainEvent(ctx: AppContext, event: { name: WebhookEventName; ownerId: string; data: Record<string, unknown> }) {
  const hooks = await webhooksRepository.listeners(ctx.db, event.name, event.ownerId);
  if (hooks.length === 0) return;
  const now = ctx.clock.now();
  const payload: WebhookPayload = { id: `evt_${newId()}`, type: event.name, created: now.toISOString(), data: event.data };
  const rows = await webhooksRepository.insertDeliveries(
    ctx.db,
    hooks.map((h) => ({
      id: newId(),
      webhookId: h.id,
      event: event.name,
      eventId: payload.id,
      payload: payload as unknown as Record<string, unknown>,
      status: 'pending' as const,
      createdAt: now,
      updatedAt: now,
      nextAttemptAt: now,
    })),
  );
  for (const row of rows) await enqueueAttempt(ctx, row.id, 1, now);
}

async function enqueueAttempt(ctx: AppContext, deliveryId: string, attempt: number, runAt: Date) {
  // Retries are scheduled here (own delays); the queue's own retry covers a process that died mid-send.
  await ctx.jobs.enqueue(DELIVER_QUEUE, { deliveryId, attempt }, { dedupeKey: `webhook:${deliveryId}:${attempt}`, runAt, maxAttempts: 2 });
}

export function registerDeliveryJob(ctx: AppContext) {
  ctx.jobs.register(DELIVER_QUEUE, (job: JobRow) => deliver(ctx, String(job.payload.deliveryId), Number(job.payload.attempt)));
}

/**
 * One attempt: resolve and check the host again (rebinding), sign, POST with a deadline, record the
 * attempt, then finish the delivery or schedule the next attempt with an exponential delay.
 */
export async function deliver(ctx: AppContext, deliveryId: string, attempt: number) {
  const delivery = await webhooksRepository.delivery(ctx.db, deliveryId);
  if (!delivery || delivery.status === 'succeeded' || delivery.status === 'failed' || delivery.attempts >= attempt) return;
  const hook = await webhooksRepository.byId(ctx.db, delivery.webhookId);
  const started = ctx.clock.now();
  if (!hook || !hook.active) {
    await finish(ctx, delivery, attempt, started, { statusCode: null, responseMs: null, error: 'The webhook was disabled' }, 'failed');
    return;
  }
  let result: { statusCode: number | null; responseMs: number | null; error: string | null };
  try {
    const target = await resolveTarget(hook.url, { allowPrivate: await allowPrivateUrls(ctx), resolver: resolvers.get(ctx) });
    const body = JSON.stringify(delivery.payload);
    const secret = box(ctx).open(hook.secretEnc, hook.id);
    const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
    result = await postJson(
      target,
      body,
      {
        'user-agent': `Sightline-Webhooks/${ctx.config.appVersion}`,
        [WEBHOOK_EVENT_HEADER]: delivery.event,
        [WEBHOOK_DELIVERY_HEADER]: delivery.id,
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, timestamp, body),
      },
      ctx.config.webhooks.timeoutMs,
    );
  } catch (err) {
    if (err instanceof UrlRefused && !err.transient) {
      // Not allowed now (the name was rebound to an internal address, or the setting changed): no retries.
      await finish(ctx, delivery, attempt, started, { statusCode: null, responseMs: null, error: `Refused: ${err.message}` }, 'failed');
      return;
    }
    result = { statusCode: null, responseMs: null, error: (err as Error).message.slice(0, 500) };
  }
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  if (!ok && !result.error) result.error = `HTTP ${result.statusCode}`;
  if (ok) await finish(ctx, delivery, attempt, started, result, 'succeeded');
  else if (attempt >= ctx.config.webhooks.maxAttempts) await finish(ctx, delivery, attempt, started, result, 'failed');
  else {
    const next = new Date(ctx.clock.now().getTime() + retryDelayMs(ctx, attempt));
    await finish(ctx, delivery, attempt, started, result, 'retrying', next);
    await enqueueAttempt(ctx, delivery.id, attempt + 1, next);
  }
}

async function finish(
  ctx: AppContext,
  delivery: DeliveryRow,
  attempt: number,
  at: Date,
  result: { statusCode: number | null; responseMs: number | null; error: string | null },
  status: DeliveryRow['status'],
  nextAttemptAt: Date | null = null,
) {
  await webhooksRepository.insertAttempt(ctx.db, {
    deliveryId: delivery.id,
    attempt,
    at,
    statusCode: result.statusCode,
    responseMs: result.responseMs,
    error: result.error,
  });
  await webhooksRepository.updateDelivery(ctx.db, delivery.id, {
    status,
    attempts: attempt,
    statusCode: result.statusCode,
    responseMs: result.responseMs,
    error: result.error,
    lastAttemptAt: at,
    nextAttemptAt,
    updatedAt: ctx.clock.now(),
  });
}

export type { WebhookRow };
