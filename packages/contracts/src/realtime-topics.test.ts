import { describe, expect, it } from 'vitest';
import { parseTopic, topics } from './realtime.js';

describe('parseTopic: the one reading of topic strings (ADR 0032)', () => {
  it('reads back what topics.* builds', () => {
    expect(parseTopic(topics.model('m1'))).toEqual({ kind: 'model', id: 'm1' });
    expect(parseTopic(topics.dataset('d1'))).toEqual({ kind: 'dataset', id: 'd1' });
    expect(parseTopic(topics.project('p1'))).toEqual({ kind: 'project', id: 'p1' });
    expect(parseTopic(topics.team('t1'))).toEqual({ kind: 'team', id: 't1' });
    expect(parseTopic(topics.user('u1'))).toEqual({ kind: 'user', userId: 'u1', rest: null });
    expect(parseTopic(topics.userModels('u1'))).toEqual({ kind: 'user', userId: 'u1', rest: 'models' });
    expect(parseTopic(topics.presence('u1'))).toEqual({ kind: 'presence', userId: 'u1' });
    expect(parseTopic(topics.config())).toEqual({ kind: 'config' });
  });

  it('answers null for what no builder makes', () => {
    for (const t of ['', 'model:', 'model', ':m1', 'user::x', 'job:1', 'config:x']) expect(parseTopic(t)).toBeNull();
  });
});
