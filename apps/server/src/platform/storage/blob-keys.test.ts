import { describe, expect, it } from 'vitest';
import { blobKeys } from './blob-keys.js';

describe('blobKeys', () => {
  it('spells the users/{uid}/... layout of spec §7', () => {
    expect(blobKeys.datasetFile('u', 'd', 'a.zip')).toBe('users/u/datasets/d/a.zip');
    expect(blobKeys.datasetPrefix('u', 'd')).toBe('users/u/datasets/d/');
    expect(blobKeys.modelFile('u', 'm', 'best.pt')).toBe('users/u/models/m/best.pt');
    expect(blobKeys.projectImage('u', 'p')).toBe('users/u/projects/p');
    expect(blobKeys.teamImage('u', 't')).toBe('users/u/teams/t');
  });
  it('parses dataset keys back', () => {
    expect(blobKeys.parseDatasetFile('users/u/datasets/d/a.zip')).toEqual({ uid: 'u', datasetId: 'd', file: 'a.zip' });
    expect(blobKeys.parseDatasetFile('users/u/datasets/d/x/a.zip')).toBeNull();
    expect(blobKeys.datasetIdOf('users/u/datasets/d/thumbs/1.webp')).toBe('d');
    expect(blobKeys.datasetIdOf('users/u/models/m/best.pt')).toBeNull();
  });
});
