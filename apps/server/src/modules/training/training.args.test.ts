import { describe, expect, it } from 'vitest';
import { configFromTrainArgs, projectSlugOf } from './training.args.js';

describe('training args: what the ultralytics clients send, in Sightline terms', () => {
  it('takes the project part after the owner, like the client does', () => {
    expect(projectSlugOf('alice/My Project')).toEqual({ slug: 'my-project', name: 'My Project' });
    expect(projectSlugOf('runs/detect/exp')).toEqual({ slug: 'detect-exp', name: 'detect-exp' });
    expect(projectSlugOf('alice/')).toEqual({ slug: 'untitled', name: 'Untitled' });
  });

  it('keeps only train args the model config accepts, parsed from their string form', () => {
    expect(configFromTrainArgs({ epochs: '8', imgsz: 320, batch: '-1', cache: 'False', device: 'None', patience: 'x' })).toEqual({
      epochs: 8,
      imageSize: 320,
      batchSize: -1,
      cache: false,
    });
    expect(configFromTrainArgs({ device: 'cuda:0', time: '1.5' })).toEqual({ device: 'cuda:0', time: 1.5 });
  });
});
