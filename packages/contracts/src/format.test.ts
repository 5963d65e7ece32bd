import { describe, expect, it } from 'vitest';
import { formatBytes } from './format.js';
import { resolvePlan } from './plans.js';

describe('formatBytes', () => {
  it('uses 1024 steps up to YB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 3 * 20)).toBe('20.0 GB');
    expect(formatBytes(1024 ** 8)).toBe('1.0 YB');
    expect(formatBytes(1024 ** 9)).toBe('1024.0 YB');
  });
});

describe('resolvePlan (spec §4)', () => {
  it('active, past_due count; unpaid and none are free', () => {
    expect(resolvePlan({ plan: 'pro', status: 'active' })).toBe('pro');
    expect(resolvePlan({ plan: 'pro', status: 'past_due' })).toBe('pro');
    expect(resolvePlan({ plan: 'pro', status: 'unpaid' })).toBe('free');
    expect(resolvePlan({ plan: 'pro', status: 'canceled' })).toBe('free');
    expect(resolvePlan(null)).toBe('free');
  });
});
