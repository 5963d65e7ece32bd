import { describe, expect, it } from 'vitest';
import { createStartup, loadOrder } from './startup';

describe('startup (spec §4)', () => {
  it('loads by priority team 10, dataset 7, project 6, model 5', () => {
    expect(loadOrder('/home')).toEqual(['team', 'dataset', 'project', 'model']);
  });

  it('loads the section matching the URL first', () => {
    expect(loadOrder('/models/abc')).toEqual(['model', 'team', 'dataset', 'project']);
    expect(loadOrder('/projects')).toEqual(['project', 'team', 'dataset', 'model']);
    expect(loadOrder('/datasets')).toEqual(['dataset', 'team', 'project', 'model']);
  });

  it('runs loaders one after another and marks each section, failed ones included', async () => {
    const startup = createStartup();
    const calls: string[] = [];
    const loader =
      (name: string, fail = false) =>
      async () => {
        calls.push(name);
        if (fail) throw new Error('boom');
      };
    await startup.run('/models', { team: loader('team'), dataset: loader('dataset', true), project: loader('project'), model: loader('model') });
    expect(calls).toEqual(['model', 'team', 'dataset', 'project']);
    expect(startup.store.getState()).toEqual({ team: true, dataset: true, project: true, model: true });
  });
});
