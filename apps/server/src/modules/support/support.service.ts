import { ErrorCode, PLANS, type AdminUpgradeRequest, type Plan, type UpgradeRequest } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { adminSetPlan } from '../billing/billing.service.js';
import { supportRepository, type Status, type UpgradeRequestRow } from './support.repository.js';

const asPlan = (p: string): Plan => ((PLANS as readonly string[]).includes(p) ? (p as Plan) : 'free');
const rank = (p: string) => PLANS.indexOf(asPlan(p));

export function presentUpgradeRequest(row: UpgradeRequestRow): UpgradeRequest {
  return {
    id: row.id,
    plan: asPlan(row.plan),
    fromPlan: asPlan(row.fromPlan),
    message: row.message,
    status: row.status,
    created: row.createdAt.toISOString(),
    decided: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * A user asks the admins for a plan (ADR 0030). Asking for the plan one has, or a lower one, is a
 * 409; asking again while a request is open updates that request instead of adding another.
 */
export async function requestUpgrade(ctx: AppContext, userId: string, input: { plan: 'pro' | 'enterprise'; message: string }): Promise<UpgradeRequest> {
  const current = await supportRepository.userPlan(ctx.db, userId);
  if (current === null) throw errors.notFound('User');
  if (rank(current) >= rank(input.plan)) throw errors.conflict(ErrorCode.AlreadyOnPlan, `You are already on the ${asPlan(current)} plan`);
  const row = await supportRepository.upsertOpen(ctx.db, {
    id: newId(),
    userId,
    plan: input.plan,
    fromPlan: current,
    message: input.message,
    now: ctx.clock.now(),
  });
  const username = (await supportRepository.username(ctx.db, userId)) ?? '';
  await ctx.events.emit('support.upgradeRequested', userId, { requestId: row.id, userId, username, plan: row.plan });
  return presentUpgradeRequest(row);
}

export async function myOpenRequest(ctx: AppContext, userId: string): Promise<UpgradeRequest | null> {
  const row = await supportRepository.openOf(ctx.db, userId);
  return row ? presentUpgradeRequest(row) : null;
}

export async function listUpgradeRequests(ctx: AppContext, status: Status, limit: number): Promise<{ requests: AdminUpgradeRequest[]; open: number }> {
  const [rows, open] = await Promise.all([supportRepository.list(ctx.db, status, limit), supportRepository.countOpen(ctx.db)]);
  return {
    requests: rows.map((r) => ({
      ...presentUpgradeRequest(r.request),
      user: { ...r.user, plan: asPlan(r.user.plan) },
      decidedBy: r.decidedBy?.uid ? { uid: r.decidedBy.uid, username: r.decidedBy.username } : null,
    })),
    open,
  };
}

async function closedOrMissing(ctx: AppContext, id: string): Promise<never> {
  if (await supportRepository.byId(ctx.db, id)) throw errors.conflict(ErrorCode.UpgradeRequestClosed, 'This request was already granted or dismissed');
  throw errors.notFound('Upgrade request');
}

/**
 * One click to grant: the request is closed first (two admins clicking at once grant once), then
 * the plan is set by hand the way billing's admin section does, naming the request as the reason.
 */
export async function grantUpgradeRequest(ctx: AppContext, adminId: string, id: string): Promise<UpgradeRequest> {
  const row = await supportRepository.decide(ctx.db, id, 'granted', adminId, ctx.clock.now());
  if (!row) return closedOrMissing(ctx, id);
  try {
    await adminSetPlan(ctx, adminId, row.userId, asPlan(row.plan), `Upgrade request ${row.id}`);
  } catch (err) {
    await supportRepository.reopen(ctx.db, id);
    throw err;
  }
  return presentUpgradeRequest(row);
}

export async function dismissUpgradeRequest(ctx: AppContext, adminId: string, id: string): Promise<UpgradeRequest> {
  const row = await supportRepository.decide(ctx.db, id, 'dismissed', adminId, ctx.clock.now());
  if (!row) return closedOrMissing(ctx, id);
  return presentUpgradeRequest(row);
}

export async function supportContact(ctx: AppContext) {
  return { email: await supportRepository.contactEmail(ctx.db) };
}

export async function setSupportContact(ctx: AppContext, adminId: string, email: string | null) {
  await supportRepository.setContactEmail(ctx.db, email, adminId, ctx.clock.now());
  return supportContact(ctx);
}
