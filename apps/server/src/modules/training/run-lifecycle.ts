import type { RunState } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { addListener, slot } from '../../platform/registry.js';
import { modelQueries, type ModelRow } from '../models/index.js';
import { trainingRepository, type Protocol, type TrainingPatch, type TrainingRow } from './training.repository.js';

/**
 * The run lifecycle (ADR 0020): one state machine for every training run, whoever reports it (the
 * legacy HUB client, the Platform client, the `yolo` an agent runs for a cloud run). The wire
 * adapters and the agent protocol only translate what they hear into the events below; the states,
 * the windows and what a state means for the model's dates live here.
 *
 *   queued ──report/start──▶ running ──end──▶ completed | cancelled
 *     │                        │  ▲
 *     │ stop/fail              │  └──report── timeout ◀──silence── (running, silent past its window)
 *     ▼                        ▼ stop/fail
 *   cancelled | failed    cancelled | failed
 *
 * cancelled (Stopped), failed and timeout may be queued again (train again); a timed-out run that
 * reports again is running again. Listeners (cloud billing) follow every change.
 */

export type RunEvent =
  /** A cloud run was queued for an agent (a first run, or training a model again). */
  | { type: 'queue' }
  /** A client began a run on this model (Platform training_started, a HUB process resuming). */
  | { type: 'start' }
  /** Any sign of life: a heartbeat, metrics, a console chunk, a checkpoint. */
  | { type: 'report' }
  /** The run reported its end; `stopped` when it ended early after a Stop. */
  | { type: 'end'; stopped: boolean }
  /** Stopped: from the page (a cloud run stops at once), or the run ended after a Stop. */
  | { type: 'stop'; reason?: string | null }
  /** The agent or the client says the run failed, and why. */
  | { type: 'fail'; reason: string }
  /** The sweep found the run silent past its window. */
  | { type: 'silence'; reason: string };

export interface Transition {
  from: RunState | null;
  to: RunState;
  error: string | null;
  /** The run ended (train.end is set). */
  ended: boolean;
}

const LIVE: ReadonlyArray<RunState | null> = ['queued', 'running', 'timeout'];
const RETRAINABLE: ReadonlyArray<RunState | null> = [null, 'cancelled', 'failed', 'timeout'];

/** The pure transition: the next state, or null when the event changes nothing in this state. */
export function transition(from: RunState | null, event: RunEvent): Transition | null {
  const to = (state: RunState, error: string | null = null): Transition => ({
    from,
    to: state,
    error,
    ended: state === 'completed' || state === 'cancelled' || state === 'failed',
  });
  switch (event.type) {
    case 'queue':
      return RETRAINABLE.includes(from) ? to('queued') : null;
    case 'start':
      return to('running');
    case 'report':
      // An ended run stays ended: a HUB client heartbeats on after its final upload, a stopped cloud run's yolo may say one more thing.
      return from === null || from === 'queued' || from === 'timeout' ? to('running') : null;
    case 'end':
      return from === null || LIVE.includes(from) ? to(event.stopped ? 'cancelled' : 'completed') : null;
    case 'stop':
      return from === null || LIVE.includes(from) ? to('cancelled', event.reason ?? null) : null;
    case 'fail':
      return from === null || LIVE.includes(from) ? to('failed', event.reason) : null;
    case 'silence':
      return from === 'running' ? to('timeout', event.reason) : null;
  }
}

/** Why a model cannot take a new run now, or null when it can (ADR 0020: Stopped, Failed and Timeout can train again). */
export function refusalToTrainAgain(run: Pick<TrainingRow, 'outcome'> | null, model: Pick<ModelRow, 'trainStart' | 'trainEnd'>): 'running' | 'trained' | null {
  if (!run) return model.trainStart || model.trainEnd ? 'trained' : null;
  if (run.outcome === 'queued' || run.outcome === 'running') return 'running';
  // A model reset since (legacy /model-reset clears the dates) may train again.
  if (run.outcome === 'completed' && (model.trainStart || model.trainEnd)) return 'trained';
  return null;
}

export interface Windows {
  startWindowMs: number;
  silenceWindowMs: number;
}

/** HUB clients heartbeat every 300 s (hub-protocol §5.5): a live one must never land exactly on the 5-minute edge. */
const HUB_BEAT_GRACE_MS = 300_000 + 60_000;

/**
 * How long a run may be silent: the start window until its first epoch, the silence window after
 * (spec §9: 15 and 5 minutes). A HUB run gets its heartbeat interval plus a minute at least.
 */
export const silenceAllowedMs = (epochsDone: number, w: Windows, protocol: Protocol = 'platform') =>
  epochsDone > 0 ? (protocol === 'hub' ? Math.max(w.silenceWindowMs, HUB_BEAT_GRACE_MS) : w.silenceWindowMs) : w.startWindowMs;

const minutes = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`);
/** The readable reason a silent run timed out. */
export const silenceReason = (epochsDone: number, w: Windows, protocol: Protocol = 'platform') =>
  epochsDone > 0
    ? `No word from the training run for ${minutes(silenceAllowedMs(epochsDone, w, protocol))} after epoch ${epochsDone}`
    : `No epoch reported within ${minutes(w.startWindowMs)} of the start`;

// ---- applied to the database ------------------------------------------------------------------

export interface Change {
  modelId: string;
  userId: string;
  from: RunState | null;
  to: RunState;
  error: string | null;
  event: RunEvent['type'];
}
type Listener = (ctx: AppContext, change: Change) => Promise<void>;
const listeners = slot('training.runChanges', () => [] as Listener[]);
/** Called after every change of a run's state, once committed (cloud billing follows the states through this); per app. */
export function onRunChange(ctx: Pick<AppContext, 'registry'>, fn: Listener) {
  addListener(ctx.registry.of(listeners), fn);
}

/** What a state means for the model row (spec §4 dates, the HUB status field). */
function modelPatch(model: ModelRow, t: Transition, event: RunEvent, now: Date): Partial<ModelRow> {
  if (t.to === 'queued') {
    // Training again starts from nothing: no dates (New until a run reports), no epochs.
    return {
      trainStart: null,
      trainEnd: null,
      trainHeartbeat: null,
      trainInitialized: null,
      epochsDone: 0,
      bestMetrics: null,
      hubStatus: 'new',
      updatedAt: now,
    };
  }
  if (t.to === 'running') {
    const fresh = event.type === 'start';
    return {
      trainEnd: null,
      trainHeartbeat: now,
      trainInitialized: fresh && model.trainEnd ? now : (model.trainInitialized ?? now),
      trainStart: model.trainStart ?? now,
      // A live run is "training" in the HUB view too (lists and the header read the same state).
      hubStatus: model.hubStatus === 'trained' && !fresh ? 'trained' : 'training',
      updatedAt: now,
    };
  }
  if (t.ended) return { trainEnd: model.trainEnd ?? now, trainStart: model.trainStart ?? now, updatedAt: now };
  return { updatedAt: now };
}

/**
 * Applies `event` to the model's run in one transaction (the model row locked: a late event and the
 * sweep never both win), then tells the listeners. `patch` is written to the run row with the change
 * (or alone when the state stays). Answers the run and model as they are now, and the change if any.
 */
export async function applyRunEvent(ctx: AppContext, modelId: string, protocol: Protocol, event: RunEvent, patch: TrainingPatch = {}) {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    await trainingRepository.lockModel(tx, modelId);
    const model = await modelQueries.byId(tx, modelId);
    if (!model) return null;
    const before = await trainingRepository.get(tx, modelId);
    const t = transition(before?.outcome ?? null, event);
    if (!t) {
      const run =
        Object.keys(patch).length || !before
          ? await trainingRepository.upsert(tx, modelId, before?.protocol ?? protocol, { ...patch, updatedAt: now })
          : before;
      return { run, model, change: null };
    }
    const run = await trainingRepository.upsert(tx, modelId, event.type === 'start' || event.type === 'queue' ? protocol : (before?.protocol ?? protocol), {
      outcome: t.to,
      error: t.error,
      endedAt: t.ended ? now : null,
      staleAt: t.to === 'timeout' ? now : null,
      ...(t.to === 'running' || t.to === 'queued' ? { lastEventAt: now } : {}),
      ...(t.to === 'queued'
        ? {
            cancelRequestedAt: null,
            cancelRequestedBy: null,
            runId: null,
            finalMetrics: null,
            results: null,
            bestEpoch: null,
            bestFitness: null,
            epochsTotal: null,
          }
        : {}),
      ...patch,
      updatedAt: now,
    });
    if (t.to === 'queued') await trainingRepository.clearRunData(tx, modelId);
    const updated = (await modelQueries.update(tx, modelId, modelPatch(model, t, event, now))) ?? model;
    return { run, model: updated, change: { modelId, userId: model.userId, from: t.from, to: t.to, error: t.error, event: event.type } satisfies Change };
  });
  if (!result) return null;
  if (result.change) for (const fn of ctx.registry.of(listeners)) await fn(ctx, result.change);
  return result;
}

/**
 * The sweep: runs silent past their window time out (ADR 0020). Answers the models that changed.
 * Cheap: one indexed query over running runs, then one transition each.
 */
export async function sweepSilentRuns(ctx: AppContext): Promise<string[]> {
  const now = ctx.clock.now().getTime();
  const w = ctx.config.training;
  const changed: string[] = [];
  const oldest = new Date(now - Math.min(w.startWindowMs, w.silenceWindowMs));
  for (const candidate of await trainingRepository.silentSince(ctx.db, oldest)) {
    const allowed = silenceAllowedMs(candidate.epochsDone, w, candidate.protocol);
    if (!candidate.lastEventAt || now - candidate.lastEventAt.getTime() <= allowed) continue;
    const applied = await applyRunEvent(ctx, candidate.modelId, candidate.protocol, {
      type: 'silence',
      reason: silenceReason(candidate.epochsDone, w, candidate.protocol),
    });
    if (applied?.change) changed.push(candidate.modelId);
  }
  return changed;
}
