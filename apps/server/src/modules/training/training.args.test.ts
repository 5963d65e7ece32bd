import { describe, expect, it } from 'vitest';
import { configFromTrainArgs, hubStoredName, platformStoredName, projectSlugOf, runArgsOf, storedKind } from './training.args.js';

describe('training args: what the ultralytics clients send, in Sightline terms', () => {
  it('takes the project part after the owner, like the client does', () => {
    expect(projectSlugOf('alice/My Project')).toEqual({ slug: 'my-project', name: 'My Project' });
    expect(projectSlugOf('runs/detect/exp')).toEqual({ slug: 'detect-exp', name: 'detect-exp' });
    expect(projectSlugOf('alice/')).toEqual({ slug: 'untitled', name: 'Untitled' });
  });

  it('keeps only train args the model config accepts, parsed from their string form', () => {
    expect(configFromTrainArgs({ epochs: '8', imgsz: 320, batch: '-1', cache: 'False', device: 'None', patience: 'x' })).toEqual({ epochs: 8, imageSize: 320, batchSize: -1, cache: false });
    expect(configFromTrainArgs({ device: 'cuda:0', time: '1.5' })).toEqual({ device: 'cuda:0', time: 1.5 });
  });

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
