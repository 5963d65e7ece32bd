import { describe, expect, it } from 'vitest';
import { pathFor, RouterError, ROUTE_PATHS } from './route-names';

describe('pathFor', () => {
  it('builds paths of named routes with params and query', () => {
    expect(pathFor('home')).toBe('/home');
    expect(pathFor('model-content', { id: 'abc' })).toBe('/models/abc');
    expect(pathFor('roboflow-dataset', { id: 'x y' })).toBe('/integrations/roboflow/datasets/x%20y');
    expect(pathFor('settings', {}, { tab: 'billing' })).toBe('/settings?tab=billing');
  });

  it('raises a router error on an unknown name or a missing param', () => {
    expect(() => pathFor('nope')).toThrow(RouterError);
    expect(() => pathFor('model-content')).toThrow(/needs the parameter "id"/);
  });

  it('names the routes of the spec', () => {
    for (const name of [
      'guest',
      'sign-up',
      'sign-in',
      'forbidden',
      'uikit',
      'not-found',
      'project-content',
      'datasets-index',
      'dataset-content',
      'roboflow-dataset',
      'models',
      'model-content',
      'admin',
    ]) {
      expect(ROUTE_PATHS).toHaveProperty(name);
    }
  });
});
