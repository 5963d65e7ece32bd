import { describe, expect, it } from 'vitest';
import { modelStatus } from '@sightline/contracts';
import { refusalToTrainAgain, silenceAllowedMs, transition } from './run-lifecycle.js';

/** The pure side of the run lifecycle (ADR 0020); the database side is in test/run-lifecycle.test.ts. */
describe('run lifecycle transitions', () => {
  const w = { startWindowMs: 15 * 60_000, silenceWindowMs: 5 * 60_000 };

  it('ends as soon as the end is known, from queued, running or timeout', () => {
    for (const from of ['queued', 'running', 'timeout'] as const) {
      expect(transition(from, { type: 'stop', reason: 'x' })).toMatchObject({ to: 'cancelled', ended: true, error: 'x' });
      expect(transition(from, { type: 'fail', reason: 'agent gone' })).toMatchObject({ to: 'failed', ended: true, error: 'agent gone' });
      expect(transition(from, { type: 'end', stopped: false })).toMatchObject({ to: 'completed', ended: true });
      expect(transition(from, { type: 'end', stopped: true })).toMatchObject({ to: 'cancelled' });
    }
  });

  it('a late event revives a Timeout; an ended run ignores reports and other ends', () => {
    expect(transition('timeout', { type: 'report' })).toMatchObject({ to: 'running', ended: false, error: null });
    expect(transition('running', { type: 'report' })).toBeNull();
    for (const from of ['completed', 'cancelled', 'failed'] as const) {
      expect(transition(from, { type: 'report' })).toBeNull();
      expect(transition(from, { type: 'fail', reason: 'late' })).toBeNull();
      expect(transition(from, { type: 'silence', reason: 'late' })).toBeNull();
    }
    expect(transition('running', { type: 'silence', reason: 'quiet' })).toMatchObject({ to: 'timeout', ended: false, error: 'quiet' });
  });

  it('Stopped, Failed and Timeout train again; a trained or live model does not', () => {
    const dates = { trainStart: new Date(), trainEnd: new Date() };
    for (const outcome of ['cancelled', 'failed', 'timeout'] as const) {
      expect(refusalToTrainAgain({ outcome }, dates)).toBeNull();
      expect(transition(outcome, { type: 'queue' })).toMatchObject({ to: 'queued' });
    }
    expect(refusalToTrainAgain({ outcome: 'completed' }, dates)).toBe('trained');
    expect(refusalToTrainAgain({ outcome: 'completed' }, { trainStart: null, trainEnd: null })).toBeNull();
    expect(refusalToTrainAgain({ outcome: 'running' }, dates)).toBe('running');
    expect(refusalToTrainAgain(null, { trainStart: null, trainEnd: null })).toBeNull();
    expect(transition('completed', { type: 'queue' })).toBeNull();
  });

  it('the spec windows: 15 min before the first epoch, 5 after; a HUB run at least its beat plus a minute', () => {
    expect(silenceAllowedMs(0, w)).toBe(15 * 60_000);
    expect(silenceAllowedMs(3, w)).toBe(5 * 60_000);
    expect(silenceAllowedMs(3, w, 'hub')).toBe(6 * 60_000);
    expect(silenceAllowedMs(3, { startWindowMs: 1000, silenceWindowMs: 1000 })).toBe(1000);
  });

  it('modelStatus shows the run state the server decided', () => {
    const now = Date.now();
    const iso = (ago: number) => new Date(now - ago).toISOString();
    const ended = { train: { start: iso(600_000), end: iso(1000), heartbeat: iso(1000), initialized: iso(600_000) } };
    expect(modelStatus(ended, now, { outcome: 'cancelled' })).toBe('Stopped');
    expect(modelStatus(ended, now, { outcome: 'failed' })).toBe('Failed');
    expect(modelStatus(ended, now, { outcome: 'completed' })).toBe('Trained');
    const quiet = { train: { start: iso(30 * 60_000), end: null, heartbeat: iso(7 * 60_000), initialized: iso(30 * 60_000) } };
    expect(modelStatus(quiet, now, { outcome: 'timeout' })).toBe('Timeout');
    // A running run follows the spec §4 dates rule; the sweep agrees within a minute.
    expect(modelStatus(quiet, now, { outcome: 'running' })).toBe('Timeout');
    // A model reset since (no dates) is New whatever its last run was.
    expect(modelStatus({ train: { start: null, end: null, heartbeat: null, initialized: null } }, now, { outcome: 'failed' })).toBe('New');
  });
});
