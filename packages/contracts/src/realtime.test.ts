import { describe, expect, it } from 'vitest';
import { parseServerEvent, REALTIME_EVENT_NAMES, realtimeEventSchemas, topicKind, topics } from './realtime.js';

describe('realtime catalogue', () => {
  it('builds the topics the server authorizes', () => {
    expect(topics.user('u1')).toBe('user:u1');
    expect(topics.userDatasets('u1')).toBe('user:u1:datasets');
    expect(topics.userModels('u1')).toBe('user:u1:models');
    expect(topics.userProjects('u1')).toBe('user:u1:projects');
    expect(topics.model('m1')).toBe('model:m1');
    expect(topics.dataset('d1')).toBe('dataset:d1');
    expect(topics.project('p1')).toBe('project:p1');
    expect(topics.presence('u1')).toBe('presence:u1');
    expect(topics.config()).toBe('config');
    expect(topicKind(topics.userModels('u1'))).toBe('user');
  });

  it('has one schema per event name, named <entity>.<verb>', () => {
    for (const name of REALTIME_EVENT_NAMES) {
      expect(name).toMatch(/^[a-z]+\.[a-z]+$/);
      expect(realtimeEventSchemas[name]).toBeDefined();
    }
  });

  it('reads a valid event, keeps a truncated one, drops the rest', () => {
    expect(parseServerEvent({ topic: 'dataset:d1', event: 'dataset.progress', data: { id: 'd1', phase: 'images', done: 1, total: 2 } })).toEqual({
      type: 'event',
      topic: 'dataset:d1',
      event: 'dataset.progress',
      data: { id: 'd1', phase: 'images', done: 1, total: 2 },
    });
    expect(parseServerEvent({ topic: 'model:m1', event: 'model.metrics', data: null, truncated: true })).toMatchObject({ data: null, truncated: true });
    expect(parseServerEvent({ topic: 'model:m1', event: 'model.metrics', data: { id: 'm1', projectId: null, epochs: ['x'], final: false } })).toBeNull();
    expect(parseServerEvent({ topic: 'model:m1', event: 'model.exploded', data: {} })).toBeNull();
  });
});
