import type { AppContext } from '../../context.js';
import { newId } from '../../platform/ids.js';
import { record, type AuditInput } from '../audit/audit.service.js';
import { analyticsRepository } from './analytics.repository.js';

/** Analytics event names of spec §1. */
export type AnalyticsEventName =
  | 'sign_up'
  | 'sign_in'
  | 'sign_out'
  | 'update_profile'
  | 'update_password'
  | 'update_plan'
  | `${'create' | 'update' | 'delete' | 'share'}_${'dataset' | 'project' | 'model'}`
  | 'export_model'
  | 'infer_model'
  | 'empty_trash'
  | `${'create' | 'update' | 'delete' | 'leave' | 'transfer'}_team`
  | `${'send' | 'accept' | 'reject' | 'cancel'}_team_invite`
  | `${'remove' | 'update'}_team_member`
  | `${'add' | 'remove'}_team_item`;

export async function track(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string | null, name: AnalyticsEventName, properties: Record<string, unknown> = {}) {
  await analyticsRepository.insert(ctx.db, { id: newId(), userId, name, properties, createdAt: ctx.clock.now() });
  const audited = auditOf(userId, name, properties);
  if (audited) await record(ctx, audited);
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The security-relevant events are also audit-log entries (issue 15): every service that tracks
 * them is audited through this one place. The event's user is the actor, except for plan changes
 * (the event belongs to the user whose plan changed; the actor is whoever made the request).
 */
function auditOf(userId: string | null, name: AnalyticsEventName, p: Record<string, unknown>): AuditInput | null {
  const self = userId ? { type: 'user', id: userId } : undefined;
  const actor = userId ? { id: userId } : undefined;
  const item = /^(delete|share)_(dataset|project|model)$/.exec(name);
  if (item) {
    const id = str(p[`${item[2]}Id`]);
    const meta = item[1] === 'share' ? { privacy: p.privacy } : { hard: p.hard ?? false };
    return { action: item[1] === 'share' ? 'item.share' : 'item.delete', actor, target: id ? { type: item[2]!, id } : undefined, userId: null, meta };
  }
  const teamId = str(p.teamId);
  const team = teamId ? { type: 'team', id: teamId } : undefined;
  const member = str(p.member) ?? str(p.to);
  switch (name) {
    case 'sign_in':
      return { action: 'auth.sign_in', actor, target: self, meta: { provider: p.provider } };
    case 'sign_out':
      return { action: 'auth.sign_out', actor, target: self };
    case 'update_password':
      return { action: p.via === 'reset' ? 'account.password_reset' : 'account.password_change', actor, target: self };
    case 'update_profile':
      return Array.isArray(p.fields) && p.fields.includes('email') ? { action: 'account.email_change', actor, target: self } : null;
    case 'update_plan':
      return { action: 'user.plan_change', target: self, meta: { from: p.from, to: p.to, source: p.source, reason: p.reason } };
    case 'empty_trash':
      return { action: 'trash.empty', actor, target: self, meta: { items: p.items } };
    case 'delete_team':
      return { action: 'team.delete', actor, target: team, userId: null };
    case 'send_team_invite':
      return { action: 'team.invite', actor, target: team, userId: null, meta: { role: p.role } };
    case 'accept_team_invite':
    case 'reject_team_invite':
    case 'cancel_team_invite':
      return { action: `team.invite_${name.split('_')[0] as 'accept' | 'reject' | 'cancel'}`, actor, target: team, userId: null };
    case 'remove_team_member':
      return { action: 'team.member_remove', actor, target: team, userId: member, meta: { member } };
    case 'update_team_member':
      return { action: 'team.member_role', actor, target: team, userId: member, meta: { member, role: p.role } };
    case 'transfer_team':
      return { action: 'team.transfer', actor, target: team, userId: null, meta: { to: member } };
    case 'leave_team':
      return { action: 'team.leave', actor, target: team, userId: null };
    case 'add_team_item':
    case 'remove_team_item':
      return { action: name === 'add_team_item' ? 'team.item_add' : 'team.item_remove', actor, target: team, userId: null, meta: { kind: p.kind, id: p.id } };
    default:
      return null;
  }
}

const DAY_MS = 86_400_000;

function bucketKeys(from: Date, to: Date, interval: 'day' | 'week') {
  const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  if (interval === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7)); // ISO weeks start on Monday
  const keys: string[] = [];
  for (let t = start.getTime(); t < to.getTime() && keys.length < 1000; t += interval === 'week' ? 7 * DAY_MS : DAY_MS) keys.push(new Date(t).toISOString().slice(0, 10));
  return keys;
}

/** The admin charts: events per name over time, active users and sign-ups, all from SQL aggregates. */
export async function eventsOverTime(ctx: Pick<AppContext, 'db'>, from: Date, to: Date, interval: 'day' | 'week', names?: string[]) {
  const rows = await analyticsRepository.countsOverTime(ctx.db, from, to, interval);
  const active = await analyticsRepository.activeUsers(ctx.db, from, to, interval);
  const buckets = bucketKeys(from, to, interval);
  const index = new Map(buckets.map((b, i) => [b, i]));
  const byName = new Map<string, number[]>();
  for (const r of rows) {
    if (names && !names.includes(r.name)) continue;
    const i = index.get(r.bucket);
    if (i === undefined) continue;
    const counts = byName.get(r.name) ?? buckets.map(() => 0);
    counts[i] = r.n;
    byName.set(r.name, counts);
  }
  const activeUsers = buckets.map(() => 0);
  for (const r of active) {
    const i = index.get(r.bucket);
    if (i !== undefined) activeUsers[i] = r.n;
  }
  const signUps = buckets.map(() => 0);
  for (const r of rows) if (r.name === 'sign_up' && index.has(r.bucket)) signUps[index.get(r.bucket)!] = r.n;
  const series = [...byName.entries()].map(([name, counts]) => ({ name, counts })).sort((a, b) => a.name.localeCompare(b.name));
  const totals = series.map((s) => ({ name: s.name, count: s.counts.reduce((a, b) => a + b, 0) })).sort((a, b) => b.count - a.count);
  return { buckets, series, activeUsers, signUps, totals };
}

/** Top models and datasets (through the model's dataset) by inference calls. */
export async function topByInference(ctx: Pick<AppContext, 'db'>, from: Date, to: Date) {
  const models = await analyticsRepository.topModels(ctx.db, from, to, 200);
  const datasets = new Map<string, { id: string; name: string | null; calls: number }>();
  for (const m of models) {
    if (!m.datasetId) continue;
    const d = datasets.get(m.datasetId) ?? { id: m.datasetId, name: m.datasetName, calls: 0 };
    d.calls += m.calls;
    datasets.set(m.datasetId, d);
  }
  return {
    models: models.slice(0, 10).map((m) => ({ id: m.id, name: m.name, calls: m.calls })),
    datasets: [...datasets.values()].sort((a, b) => b.calls - a.calls).slice(0, 10),
  };
}

/** The chart data as CSV: one row per bucket, one column per event name, then active users and sign-ups. */
export function seriesCsv(s: Awaited<ReturnType<typeof eventsOverTime>>) {
  const header = ['bucket', ...s.series.map((x) => x.name), 'active_users', 'sign_ups'];
  const lines = s.buckets.map((b, i) => [b, ...s.series.map((x) => x.counts[i]), s.activeUsers[i], s.signUps[i]].join(','));
  return `${header.join(',')}\r\n${lines.map((l) => `${l}\r\n`).join('')}`;
}
