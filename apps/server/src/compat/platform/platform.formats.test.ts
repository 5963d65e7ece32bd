import { describe, expect, it } from 'vitest';
import { hubStoredName } from '../hub/hub.formats.js';
import { platformStoredName, runArgsOf, storedKind } from './platform.formats.js';

describe('Platform formats: what the ultralytics clients send, in Sightline terms', () => {
  it('reads the dataset reference, architecture, parent weights and task of a run', () => {
    const args = runArgsOf({ data: 'ul://alice/datasets/shapes3', model: 'ul://alice/proj/yolo11n-best.pt', task: 'detect' });
    expect(args.datasetRef).toEqual({ owner: 'alice', slug: 'shapes3' });
    expect(args.architecture).toEqual({ name: 'yolo11n-best' });
    expect(args.parent).toEqual({ name: 'yolo11n-best.pt', url: 'ul://alice/proj/yolo11n-best.pt' });
    expect(args.task).toBe('detect');
    const local = runArgsOf({ data: 'coco8.yaml', model: 'yolo11n.yaml', task: 'Not A Task' });
    expect(local).toMatchObject({ dataArg: 'coco8.yaml', datasetRef: null, architecture: { name: 'yolo11n' }, parent: undefined, task: null });
  });

  it('names checkpoint blobs so that last.pt uploads are the resumable kind', () => {
    const best = platformStoredName('train', 'runs/best.pt', 'abcdefgh12345')!;
    const last = platformStoredName('train', 'last.pt', 'zyxwvuts98765')!;
    expect(best).toBe('train-abcdefgh.pt');
    expect(last).toBe('train-last-zyxwvuts.pt');
    expect(storedKind({ slug: 'train' }, best)).toBe('best');
    expect(storedKind({ slug: 'train' }, last)).toBe('last');
    expect(platformStoredName('train', 'bad name!.pt', 'x')).toBeNull();
    expect(hubStoredName('m1', 'last', 3)).toBe('m1-last-e3.pt');
    expect(hubStoredName('m1', 'best', null)).toBe('m1-best.pt');
  });
});
