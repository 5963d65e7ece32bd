import {
  ErrorCode,
  type AdminJob,
  type AdminUserDetail,
  type AdminUsersQuery,
  type AdminUserListQuery,
  type AdminUserRow,
  type OutboxQuery,
  type AdminFeedbackQuery,
  type AdminJobsQuery,
} from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { requestCancel, tailOf } from '../agents/agents.service.js';
import { record } from '../audit/audit.service.js';
import { endAllSessions } from '../auth/auth.service.js';
import { retryExport } from '../exports/exports.service.js';
import { presentUser } from '../users/users.presenter.js';
import { markDeleted, restoreAccount } from '../users/users.service.js';
import { adminRepository, type AgentJobRow, type JobsAfter, type QueueJobRow, type UserRow } from './admin.repository.js';

/**
 * Every account, newest first, in keyset pages (ADR 0042): `(created_at, id)` before the cursor's user,
 * compared in the database; `q` narrows it as the user search does.
 */
export async function listUsers(ctx: AppContext, q: AdminUserListQuery) {
  const afterId = q.cursor === undefined ? null : decodeIdCursor(q.cursor);
  const rows = await adminRepository.searchUsers(ctx.db, { q: q.q, sort: 'created', dir: 'desc', afterId, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  return { items: page.map((u) => presentUser(u)), nextCursor: rows.length > q.limit ? encodeIdCursor(page.at(-1)!.id) : null };
}

/**
 * With no SMTP the outbox is where mails can be read; admins see a warning in the app. Paged by key,
 * newest first (ADR 0042): the cursor names the previous page's last mail, and the page is the mails
 * before it in (created, id) order, at the database's own precision.
 */
export async function outbox(ctx: AppContext, q: OutboxQuery) {
  const after = q.cursor === undefined ? null : decodeIdCursor(q.cursor);
  const rows = await adminRepository.mailsPage(ctx.db, after, q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    mailEnabled: ctx.mailer.enabled,
    nextCursor: rows.length > q.limit ? encodeIdCursor(page.at(-1)!.id) : null,
    mails: page.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      created: m.createdAt.toISOString(),
      sent: m.sentAt?.toISOString() ?? null,
      error: m.error,
    })),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentAdminUser(u: UserRow): AdminUserRow {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    firstName: u.firstName,
    plan: u.plan as AdminUserRow['plan'],
    roles: u.roles,
    created: u.createdAt.toISOString(),
    lastLogin: iso(u.lastLoginAt),
    deleted: iso(u.deletedAt),
    disabled: iso(u.disabledAt),
  };
}

/** A keyset cursor that names the previous page's last row; the database compares against that row. */
const encodeIdCursor = (id: string) => Buffer.from(JSON.stringify([id])).toString('base64url');
function decodeIdCursor(cursor: string): string {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') return v[0];
  } catch {
    /* fall through */
  }
  throw errors.validation('cursor must be the nextCursor of a previous page', { field: 'cursor' });
}

/** A keyset page of users (works the same on page 1 and page 4,000); the cursor names the page's last user. */
export async function searchUsers(ctx: AppContext, q: AdminUsersQuery) {
  const afterId = q.cursor ? decodeIdCursor(q.cursor) : null;
  const rows = await adminRepository.searchUsers(ctx.db, { q: q.q, sort: q.sort, dir: q.dir, afterId, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  return { users: page.map(presentAdminUser), next: rows.length > q.limit ? encodeIdCursor(page.at(-1)!.id) : null };
}

async function userOr404(ctx: AppContext, id: string) {
  const u = await adminRepository.userById(ctx.db, id);
  if (!u) throw errors.notFound('User');
  return u;
}

export async function userDetail(ctx: AppContext, id: string): Promise<AdminUserDetail> {
  const u = await userOr404(ctx, id);
  const now = ctx.clock.now();
  const usage = await adminRepository.usage(ctx.db, id);
  const counts = await adminRepository.counts(ctx.db, id, now, `m:${now.toISOString().slice(0, 7)}`);
  const total = Object.values(usage).reduce((s, c) => s + c.bytes + c.trashedBytes, 0);
  return { ...presentAdminUser(u), storage: { ...usage, total }, ...counts };
}

const userTarget = (u: UserRow) => ({ type: 'user', id: u.id, label: u.email });
const isActiveAdmin = (u: UserRow) => u.roles.includes('admin') && !u.deletedAt && !u.disabledAt;

/** Refuses to take away the instance's last working admin (revoking, disabling or deleting them). */
async function assertNotLastAdmin(tx: AppContext['db'], u: UserRow) {
  if (!isActiveAdmin(u)) return;
  await adminRepository.lockAdmins(tx);
  if ((await adminRepository.otherAdmins(tx, u.id)).rows.length === 0) {
    throw errors.conflict(ErrorCode.LastSiteAdmin, 'This is the last admin of the instance: make someone else an admin first');
  }
}

export async function setAdminRole(ctx: AppContext, id: string, grant: boolean) {
  const updated = await ctx.db.transaction(async (tx) => {
    const u = await adminRepository.userById(tx, id);
    if (!u) throw errors.notFound('User');
    if (grant === u.roles.includes('admin')) return null;
    if (!grant) await assertNotLastAdmin(tx, u);
    const roles = grant ? [...u.roles, 'admin'] : u.roles.filter((r) => r !== 'admin');
    return adminRepository.updateUser(tx, id, { roles, updatedAt: ctx.clock.now() });
  });
  const u = updated ?? (await userOr404(ctx, id));
  if (updated) await record(ctx, { action: grant ? 'user.role_grant' : 'user.role_revoke', target: userTarget(u), meta: { role: 'admin' } });
  return userDetail(ctx, id);
}

export async function setDisabled(ctx: AppContext, actorId: string, id: string, disabled: boolean, reason?: string) {
  if (disabled && actorId === id) throw errors.forbidden('You cannot disable your own account');
  const updated = await ctx.db.transaction(async (tx) => {
    const u = await adminRepository.userById(tx, id);
    if (!u) throw errors.notFound('User');
    if (disabled === Boolean(u.disabledAt)) return null;
    if (disabled) await assertNotLastAdmin(tx, u);
    return adminRepository.updateUser(tx, id, { disabledAt: disabled ? ctx.clock.now() : null, updatedAt: ctx.clock.now() });
  });
  if (updated) {
    if (disabled) await endAllSessions(ctx, id);
    await record(ctx, { action: disabled ? 'user.disable' : 'user.enable', target: userTarget(updated), meta: reason ? { reason } : {} });
  }
  return userDetail(ctx, id);
}

/** Soft deletion with the account grace period (restorable until it is purged). */
export async function deleteUser(ctx: AppContext, actorId: string, id: string, reason?: string) {
  if (actorId === id) throw errors.forbidden('Delete your own account from Settings');
  const u = await ctx.db.transaction(async (tx) => {
    const row = await adminRepository.userById(tx, id);
    if (!row) throw errors.notFound('User');
    if (!row.deletedAt) await assertNotLastAdmin(tx, row);
    return row;
  });
  if (!u.deletedAt) {
    await markDeleted(ctx, id);
    await endAllSessions(ctx, id);
    await ctx.events.emit('user.deleted', id, { userId: id });
    await record(ctx, { action: 'user.delete', target: userTarget(u), meta: reason ? { reason } : {} });
  }
  return userDetail(ctx, id);
}

export async function restoreUser(ctx: AppContext, id: string, graceDays: number) {
  const before = await userOr404(ctx, id);
  const row = await restoreAccount(ctx, id, graceDays);
  if (before.deletedAt) await record(ctx, { action: 'user.restore', target: userTarget(row) });
  return row;
}

export async function signOutEverywhere(ctx: AppContext, id: string) {
  const u = await userOr404(ctx, id);
  await endAllSessions(ctx, id);
  await record(ctx, { action: 'user.sign_out_everywhere', target: userTarget(u) });
  return userDetail(ctx, id);
}

// ---- jobs

const QUEUE_ACTIVE = ['queued', 'running'];
const AGENT_ACTIVE: AgentJobRow['status'][] = ['queued', 'claimed', 'running'];

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** What a job works on, by id: a queue job says it in its payload, an agent job in its columns. */
function refsOf(j: { source: 'queue'; row: QueueJobRow } | { source: 'agent'; row: AgentJobRow }) {
  if (j.source === 'agent') return { userId: j.row.userId, modelId: j.row.modelId, datasetId: null };
  const p = j.row.payload as Record<string, unknown>;
  return { userId: str(p.userId), modelId: str(p.modelId), datasetId: str(p.datasetId) };
}

type Names = Awaited<ReturnType<typeof adminRepository.namesOf>>;
const EMPTY_NAMES: Names = { users: new Map(), models: new Map(), datasets: new Map() };

/** The people-facing names of the jobs' users, models and datasets (issue: names, not ids). */
async function namesFor(ctx: AppContext, refs: Array<ReturnType<typeof refsOf>>): Promise<Names> {
  const ids = (k: 'userId' | 'modelId' | 'datasetId') => [...new Set(refs.map((r) => r[k]).filter((v): v is string => v !== null))];
  return adminRepository.namesOf(ctx.db, { users: ids('userId'), models: ids('modelId'), datasets: ids('datasetId') });
}

function named(refs: ReturnType<typeof refsOf>, names: Names): Pick<AdminJob, 'userId' | 'user' | 'model' | 'dataset'> {
  const pick = (id: string | null, map: Map<string, string>) => (id && map.has(id) ? { id, name: map.get(id)! } : null);
  const user = pick(refs.userId, names.users);
  return {
    userId: refs.userId,
    user: user && { id: user.id, username: user.name },
    model: pick(refs.modelId, names.models),
    dataset: pick(refs.datasetId, names.datasets),
  };
}

function presentQueueJob(j: QueueJobRow, names: Names = EMPTY_NAMES): AdminJob {
  const progress = j.progress ? [JSON.stringify(j.progress)] : [];
  return {
    id: j.id,
    source: 'queue',
    kind: j.queue,
    status: j.status,
    attempts: j.attempts,
    maxAttempts: j.maxAttempts,
    lastError: j.lastError,
    logTail: progress,
    ...named(refsOf({ source: 'queue', row: j }), names),
    created: j.createdAt.toISOString(),
    updated: j.updatedAt.toISOString(),
    canRetry: j.status === 'failed' || j.status === 'cancelled',
    canCancel: j.status === 'queued',
  };
}

async function presentAgentJob(ctx: AppContext, j: AgentJobRow, names?: Names): Promise<AdminJob> {
  const tail = await tailOf(ctx, j.id, 12);
  const refs = refsOf({ source: 'agent', row: j });
  return {
    id: j.id,
    source: 'agent',
    kind: j.kind,
    status: j.status,
    attempts: j.attempts,
    maxAttempts: j.maxAttempts,
    lastError: j.error,
    logTail: tail ? tail.split('\n') : [],
    ...named(refs, names ?? (await namesFor(ctx, [refs]))),
    created: j.createdAt.toISOString(),
    updated: j.updatedAt.toISOString(),
    canRetry: j.kind === 'export' && (j.status === 'failed' || j.status === 'cancelled') && Boolean(j.exportId),
    canCancel: AGENT_ACTIVE.includes(j.status) && !j.cancelRequestedAt,
  };
}

/**
 * Jobs of both sources in keyset pages, newest update first (ADR 0042): each source reads at most
 * `limit + 1` rows after the cursor's job on its own index, and the two are merged by (update time to
 * the microsecond, id), as the database orders them.
 */
export async function listJobs(ctx: AppContext, q: AdminJobsQuery) {
  const { status } = q;
  const after = q.cursor === undefined ? null : decodeJobsCursor(q.cursor);
  const queueStatuses = status === 'active' ? QUEUE_ACTIVE : status === 'failed' ? ['failed'] : [...QUEUE_ACTIVE, 'failed'];
  const agentStatuses: AgentJobRow['status'][] = status === 'active' ? AGENT_ACTIVE : status === 'failed' ? ['failed'] : [...AGENT_ACTIVE, 'failed'];
  const [queueFound, agentFound] = await Promise.all([
    adminRepository.queueJobs(ctx.db, queueStatuses, after, q.limit + 1),
    adminRepository.agentJobs(ctx.db, agentStatuses, after, q.limit + 1),
  ]);
  type Found = { source: 'queue'; row: QueueJobRow; sortKey: string } | { source: 'agent'; row: AgentJobRow; sortKey: string };
  const merged: Found[] = [
    ...queueFound.map((f) => ({ source: 'queue' as const, row: f.row, sortKey: f.sortKey })),
    ...agentFound.map((f) => ({ source: 'agent' as const, row: f.row, sortKey: f.sortKey })),
  ].sort((a, b) => (a.sortKey === b.sortKey ? (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0) : a.sortKey < b.sortKey ? 1 : -1));
  const page = merged.slice(0, q.limit);
  const last = page.at(-1);
  const nextCursor = merged.length > q.limit && last ? Buffer.from(JSON.stringify([last.source, last.row.id])).toString('base64url') : null;
  const queueRows = page.flatMap((f) => (f.source === 'queue' ? [f.row] : []));
  const agentRows = page.flatMap((f) => (f.source === 'agent' ? [f.row] : []));
  const names = await namesFor(ctx, [...queueRows.map((row) => refsOf({ source: 'queue', row })), ...agentRows.map((row) => refsOf({ source: 'agent', row }))]);
  const queue = new Map(queueRows.map((j) => [j.id, presentQueueJob(j, names)]));
  const agent = new Map((await Promise.all(agentRows.map((j) => presentAgentJob(ctx, j, names)))).map((j) => [j.id, j]));
  return { items: page.map((f) => (f.source === 'queue' ? queue.get(f.row.id)! : agent.get(f.row.id)!)), nextCursor };
}

function decodeJobsCursor(cursor: string): JobsAfter {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && (v[0] === 'queue' || v[0] === 'agent') && typeof v[1] === 'string') return { source: v[0], id: v[1] };
  } catch {
    /* fall through */
  }
  throw errors.validation('cursor must be the nextCursor of a previous page', { field: 'cursor' });
}

export async function retryJob(ctx: AppContext, source: 'queue' | 'agent', id: string) {
  const now = ctx.clock.now();
  if (source === 'queue') {
    const job = await adminRepository.queueJob(ctx.db, id);
    if (!job) throw errors.notFound('Job');
    const moved = await adminRepository.moveQueueJob(ctx.db, id, ['failed', 'cancelled'], {
      status: 'queued',
      attempts: 0,
      runAt: now,
      lockedUntil: null,
      updatedAt: now,
    });
    if (!moved) throw errors.conflict(ErrorCode.NotFailed, `This job is ${job.status}; only failed or cancelled jobs can be retried`);
    await record(ctx, { action: 'job.retry', target: { type: 'job', id, label: job.queue }, userId: null });
    return presentQueueJob(moved, await namesFor(ctx, [refsOf({ source: 'queue', row: moved })]));
  }
  const job = await adminRepository.agentJob(ctx.db, id);
  if (!job) throw errors.notFound('Job');
  if (job.kind !== 'export' || !job.exportId) throw errors.conflict(ErrorCode.NotFailed, 'Training runs are started again from the model page, not retried');
  await retryExport(ctx, job.userId, job.modelId, job.exportId);
  await record(ctx, { action: 'job.retry', target: { type: 'job', id, label: job.kind }, userId: null });
  return presentAgentJob(ctx, (await adminRepository.agentJob(ctx.db, id))!);
}

export async function cancelJob(ctx: AppContext, actor: { id: string; roles: string[] }, source: 'queue' | 'agent', id: string) {
  const now = ctx.clock.now();
  if (source === 'queue') {
    const job = await adminRepository.queueJob(ctx.db, id);
    if (!job) throw errors.notFound('Job');
    const moved = await adminRepository.moveQueueJob(ctx.db, id, ['queued'], { status: 'cancelled', lastError: 'Cancelled by an admin', updatedAt: now });
    if (!moved) {
      if (job.status === 'running') throw new AppError(409, ErrorCode.JobRunning, 'This job is running; it can be cancelled only while queued');
      throw errors.conflict(ErrorCode.JobFinished, `This job is ${job.status}`);
    }
    await record(ctx, { action: 'job.cancel', target: { type: 'job', id, label: job.queue }, userId: null });
    return presentQueueJob(moved, await namesFor(ctx, [refsOf({ source: 'queue', row: moved })]));
  }
  const job = await adminRepository.agentJob(ctx.db, id);
  if (!job) throw errors.notFound('Job');
  await requestCancel(ctx, actor, id);
  await record(ctx, { action: 'job.cancel', target: { type: 'job', id, label: job.kind }, userId: null });
  return presentAgentJob(ctx, (await adminRepository.agentJob(ctx.db, id))!);
}

// ---- feedback

/** Feedback in keyset pages (ADR 0042); the summary, an aggregate over every row, with the first page only. */
export async function feedback(ctx: AppContext, q: AdminFeedbackQuery) {
  const after = q.cursor === undefined ? null : decodeIdCursor(q.cursor);
  const rows = await adminRepository.feedbackPage(ctx.db, after, q.limit + 1);
  const page = rows.slice(0, q.limit);
  let summary: { average: number | null; count: number | null; distribution: number[] | null } = { average: null, count: null, distribution: null };
  if (after === null) {
    const stats = await adminRepository.feedbackStats(ctx.db);
    const rated = stats.filter((s) => s.rating !== null);
    const ratedCount = rated.reduce((n, s) => n + s.n, 0);
    summary = {
      average: ratedCount ? Math.round((rated.reduce((sum, s) => sum + s.n * (s.rating ?? 0), 0) / ratedCount) * 100) / 100 : null,
      count: stats.reduce((n, s) => n + s.n, 0),
      distribution: [1, 2, 3, 4, 5].map((r) => rated.find((s) => s.rating === r)?.n ?? 0),
    };
  }
  return {
    ...summary,
    nextCursor: rows.length > q.limit ? encodeIdCursor(page.at(-1)!.id) : null,
    entries: page.map((u) => ({
      userId: u.id,
      username: u.username,
      email: u.email,
      rating: u.feedbackRating,
      review: u.feedbackReview ?? '',
      created: iso(u.feedbackCreatedAt),
      updated: iso(u.feedbackUpdatedAt),
    })),
  };
}
