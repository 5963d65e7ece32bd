import { describe, expect, it } from 'vitest';
import { modelStatus } from './models.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (min: number, sec = 0) => new Date(NOW.getTime() - (min * 60 + sec) * 1000).toISOString();

describe('modelStatus (spec §4)', () => {
  it('no dates → Status', () => {
    expect(modelStatus(null, NOW)).toBe('Status');
    expect(modelStatus(undefined, NOW)).toBe('Status');
  });
  it('no train dates → New', () => {
    expect(modelStatus({ train: {} }, NOW)).toBe('New');
    expect(modelStatus({}, NOW)).toBe('New');
  });
  it('train end → Trained, whatever else is set', () => {
    expect(modelStatus({ train: { end: ago(60), heartbeat: ago(1), start: ago(120) } }, NOW)).toBe('Trained');
    expect(modelStatus({ train: { end: ago(0) } }, NOW)).toBe('Trained');
  });
  it('heartbeat 4:59 ago → Training; 5:01 ago with a start → Timeout', () => {
    expect(modelStatus({ train: { start: ago(30), heartbeat: ago(4, 59) } }, NOW)).toBe('Training');
    expect(modelStatus({ train: { start: ago(30), heartbeat: ago(5, 0) } }, NOW)).toBe('Training');
    expect(modelStatus({ train: { start: ago(30), heartbeat: ago(5, 1) } }, NOW)).toBe('Timeout');
  });
  it('heartbeat 5:01 ago without a start → New', () => {
    expect(modelStatus({ train: { heartbeat: ago(5, 1) } }, NOW)).toBe('New');
  });
  it('initialized 14:59 ago → Initializing; 15:01 ago → Timeout with a start, New without', () => {
    expect(modelStatus({ train: { initialized: ago(14, 59) } }, NOW)).toBe('Initializing');
    expect(modelStatus({ train: { start: ago(20), initialized: ago(14, 59) } }, NOW)).toBe('Initializing');
    expect(modelStatus({ train: { start: ago(20), initialized: ago(15, 1) } }, NOW)).toBe('Timeout');
    expect(modelStatus({ train: { initialized: ago(15, 1) } }, NOW)).toBe('New');
  });
  it('a fresh heartbeat wins over initialization', () => {
    expect(modelStatus({ train: { initialized: ago(1), heartbeat: ago(0, 10) } }, NOW)).toBe('Training');
  });
  it('a start alone → Timeout', () => {
    expect(modelStatus({ train: { start: ago(1) } }, NOW)).toBe('Timeout');
  });
});
