import type { AppContext } from '../../context.js';
import { newId } from '../../platform/ids.js';
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
  | 'evaluate_model'
  | 'prelabel_dataset'
  | `${'accept' | 'reject'}_suggestions`
  | 'empty_trash'
  | `${'create' | 'update' | 'delete' | 'leave' | 'transfer'}_team`
  | `${'send' | 'accept' | 'reject' | 'cancel'}_team_invite`
  | `${'remove' | 'update'}_team_member`
  | `${'add' | 'remove'}_team_item`;

/** One analytics event (spec §1); only analytics.listeners.ts calls it (ADR 0031). */
export async function track(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string | null, name: AnalyticsEventName, properties: Record<string, unknown> = {}) {
  await analyticsRepository.insert(ctx.db, { id: newId(), userId, name, properties, createdAt: ctx.clock.now() });
}

const DAY_MS = 86_400_000;
const PERIOD_MS = { day: DAY_MS, week: 7 * DAY_MS } as const;
const key = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Start of the UTC day, or of the ISO week (Monday), holding `d`. */
function bucketStart(d: Date, interval: 'day' | 'week') {
  const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return interval === 'week' ? t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS : t;
}

/**
 * The admin charts: events per name over time, active users and sign-ups, over whole days or ISO
 * weeks covering [from, to). Closed buckets come from analytics_rollup (aggregated from the events
 * once, the first time they are asked for); the open bucket (today, this week) is counted live.
 */
export async function eventsOverTime(ctx: Pick<AppContext, 'db' | 'clock'>, from: Date, to: Date, interval: 'day' | 'week', names?: string[]) {
  const step = PERIOD_MS[interval];
  const first = bucketStart(from, interval);
  const starts: number[] = [];
  for (let t = first; t < to.getTime() && starts.length < 1000; t += step) starts.push(t);
  const buckets = starts.map(key);
  const end = starts.length ? starts[starts.length - 1]! + step : first;
  const open = bucketStart(ctx.clock.now(), interval); // buckets before this one are closed
  const closedEnd = Math.min(end, open);

  const counts = new Map<string, Map<string, number>>(); // name → bucket → count
  const add = (name: string, bucket: string, n: number) => {
    const m = counts.get(name) ?? new Map<string, number>();
    m.set(bucket, (m.get(bucket) ?? 0) + n);
    counts.set(name, m);
  };
  if (closedEnd > first) {
    const fromKey = key(first);
    const toKey = key(closedEnd);
    let rows = await analyticsRepository.rollup(ctx.db, interval, fromKey, toKey);
    const done = new Set(rows.filter((r) => r.name === '~done').map((r) => r.bucket));
    const missing = starts.filter((t) => t < closedEnd && !done.has(key(t)));
    if (missing.length) {
      // One aggregate over the span of the missing buckets; already computed ones are left alone (ON CONFLICT).
      await analyticsRepository.fillRollup(ctx.db, interval, new Date(missing[0]!), new Date(missing[missing.length - 1]! + step), missing.map(key));
      rows = await analyticsRepository.rollup(ctx.db, interval, fromKey, toKey);
    }
    for (const r of rows) if (r.name !== '~done') add(r.name, r.bucket, r.count);
  }
  if (end > open && closedEnd < end) {
    const liveFrom = new Date(Math.max(open, first));
    for (const r of await analyticsRepository.countsOverTime(ctx.db, liveFrom, new Date(end), interval)) add(r.name, r.bucket, r.n);
    for (const r of await analyticsRepository.activeUsers(ctx.db, liveFrom, new Date(end), interval)) add('~active', r.bucket, r.n);
  }
  const seriesOf = (name: string) => buckets.map((b) => counts.get(name)?.get(b) ?? 0);
  const eventNames = [...counts.keys()].filter((n) => n !== '~active' && (!names || names.includes(n))).sort();
  const series = eventNames.map((name) => ({ name, counts: seriesOf(name) }));
  const totals = series.map((s) => ({ name: s.name, count: s.counts.reduce((a, b) => a + b, 0) })).sort((a, b) => b.count - a.count);
  return { buckets, series, activeUsers: seriesOf('~active'), signUps: seriesOf('sign_up'), totals };
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
