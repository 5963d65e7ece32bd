import type { Dataset } from '@sightline/contracts';

/** A processed detect dataset the viewer may edit, for the dataset page's web tests. */
export const DATASET_ID = 'DsVersions0000000001';

export function makeDataset(overrides: Partial<Dataset> = {}): Dataset {
  return {
    id: DATASET_ID,
    slug: 'shapes',
    dates: {
      created: '2026-11-01T10:00:00.000Z',
      updated: '2026-11-01T10:00:00.000Z',
      archived: null,
      deleted: null,
      uploaded: '2026-11-01T10:00:00.000Z',
      processed: '2026-11-01T10:01:00.000Z',
      failed: null,
    },
    owner: { uid: 'AbCdEfGhIjKlMnOpQrSt', username: 'ada' },
    meta: { name: 'shapes', description: '', privacy: 'private' },
    status: 'Ready',
    schemaVersion: 2,
    provider: 'hub',
    task: 'detect',
    storage: { path: 'users/x/shapes.zip', filename: 'shapes.zip', bytes: 1000 },
    image: null,
    stats: { classes: ['circle', 'square'], classCount: 2, images: 4, train: 3, val: 1, test: 0 },
    splitStats: null,
    uploadJob: null,
    error: null,
    report: { errorCount: 0, warningCount: 0 },
    team: { id: null, name: null },
    roboflow: null,
    previews: [],
    progress: null,
    abilities: { canEdit: true, canDelete: true, canShare: true },
    ...overrides,
  };
}
