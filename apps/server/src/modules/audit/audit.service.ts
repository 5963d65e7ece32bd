import { SECURITY_ACTIONS, type AuditAction, type AuditQuery } from '@sightline/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { newId } from '../../platform/ids.js';
import { currentAuditScope } from './audit.context.js';
import { presentAuditEntry } from './audit.presenter.js';
import { auditRepository, type AuditFilter } from './audit.repository.js';

export interface AuditInput {
  action: AuditAction;
  /** defaults to the signed-in caller of the current request; null for none (a failed sign-in) */
  actor?: { id: string | null; label?: string | null };
  target?: { type: string; id: string; label?: string | null };
  /** the account this concerns (its owner sees it under Settings → Security); defaults to a user target */
  userId?: string | null;
  outcome?: 'success' | 'failure';
  meta?: Record<string, unknown>;
}

/**
 * Appends one entry to the audit log. IP and user agent come from the request being served (if
 * any). Never pass secrets in `meta`: entries are shown to admins and exported.
 */
export async function record(ctx: Pick<AppContext, 'db' | 'clock'>, input: AuditInput) {
  const scope = currentAuditScope();
  const req = scope?.request;
  const principal = req?.principal ?? null;
  const principalActor = principal ? { id: principal.user.id, label: (principal.user as { email?: string }).email ?? null } : null;
  let actor = input.actor ?? principalActor ?? { id: null };
  if (actor.id && actor.label === undefined) {
    actor = { id: actor.id, label: principalActor?.id === actor.id ? principalActor.label : await auditRepository.emailOf(ctx.db, actor.id) };
  }
  // A user target is labelled with the email it has now (kept in the entry if the account changes later).
  const target =
    input.target && input.target.type === 'user' && input.target.label === undefined
      ? { ...input.target, label: await auditRepository.emailOf(ctx.db, input.target.id) }
      : input.target;
  const meta = { ...(input.meta ?? {}), ...(principal?.via === 'api-key' && !input.actor ? { via: 'api-key' } : {}) };
  await auditRepository.insert(ctx.db, {
    id: newId(),
    createdAt: ctx.clock.now(),
    action: input.action,
    actorId: actor.id,
    actorLabel: actor.label ?? null,
    targetType: target?.type ?? null,
    targetId: target?.id ?? null,
    targetLabel: target?.label ?? null,
    userId: input.userId !== undefined ? input.userId : input.target?.type === 'user' ? input.target.id : null,
    outcome: input.outcome ?? 'success',
    ip: req?.ip ?? null,
    userAgent: headerOf(req, 'user-agent')?.slice(0, 400) ?? null,
    meta,
  });
  if (scope) scope.written += 1;
}

function headerOf(req: FastifyRequest | undefined, name: string) {
  const v = req?.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Runs before every response is sent. A failed password sign-in is recorded here (whatever refused
 * it: wrong password, unknown account, throttling), with the email tried and never the password;
 * so is an admin mutation that wrote no entry of its own (flags, plan limits, GPU types...).
 */
export async function observeResponse(ctx: Pick<AppContext, 'db' | 'clock'>, request: FastifyRequest, status: number, written: number) {
  if (!MUTATIONS.has(request.method) || written > 0) return;
  const route = request.routeOptions.url;
  if (route === '/v1/auth/signin' && status >= 400 && status !== 400) {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    await record(ctx, {
      action: 'auth.sign_in_failed',
      actor: { id: null, label: typeof email === 'string' ? email.slice(0, 254) : null },
      outcome: 'failure',
      userId: typeof email === 'string' ? await auditRepository.userIdByEmail(ctx.db, email) : null,
      meta: { status },
    });
    return;
  }
  if (route === '/v1/users/me' && request.method === 'DELETE' && status < 400 && request.principal) {
    const u = request.principal.user as { id: string; email?: string };
    await record(ctx, { action: 'account.delete', target: { type: 'user', id: u.id, label: u.email ?? null } });
    return;
  }
  if (request.routeOptions.config?.auth === 'admin' && status < 400) {
    const params = (request.params ?? {}) as Record<string, string>;
    const id = params.id ?? params.plan ?? params.name ?? null;
    await record(ctx, {
      action: 'admin.action',
      target: id ? { type: route?.split('/')[3] ?? 'admin', id } : undefined,
      userId: null,
      meta: { method: request.method, route, status },
    });
  }
}

function filterOf(q: Partial<AuditQuery>): AuditFilter {
  return {
    action: q.action || undefined,
    actor: q.actor || undefined,
    target: q.target || undefined,
    from: q.from ? new Date(q.from) : undefined,
    to: q.to ? new Date(q.to) : undefined,
    before: q.before,
  };
}

export async function listAudit(ctx: Pick<AppContext, 'db'>, q: AuditQuery) {
  const rows = await auditRepository.list(ctx.db, filterOf(q), q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { entries: page.map(presentAuditEntry), next: rows.length > q.limit ? page[page.length - 1]!.seq : null };
}

/** Every matching entry, newest first, a page at a time (the CSV export streams these). */
export async function* allAudit(ctx: Pick<AppContext, 'db'>, q: Partial<AuditQuery>) {
  let before = q.before;
  for (;;) {
    const rows = await auditRepository.list(ctx.db, { ...filterOf(q), before }, 1000);
    for (const r of rows) yield presentAuditEntry(r);
    if (rows.length < 1000) return;
    before = rows[rows.length - 1]!.seq;
  }
}

/** A user's own security events (sign-ins, password and email changes, keys, admin actions on the account). */
export async function securityEvents(ctx: Pick<AppContext, 'db'>, userId: string, before: number | undefined, limit: number) {
  const rows = await auditRepository.list(ctx.db, { userId, actions: SECURITY_ACTIONS, before }, limit + 1);
  const page = rows.slice(0, limit);
  return { entries: page.map(presentAuditEntry), next: rows.length > limit ? page[page.length - 1]!.seq : null };
}
