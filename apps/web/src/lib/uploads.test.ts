import { Messages } from '@sightline/contracts';
import { describe, expect, it } from 'vitest';
import { beforeUnloadHandler, uploads } from './uploads';

describe('leave prompt while uploads run (spec §8)', () => {
  it('asks only while an upload is in progress', () => {
    const quiet = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    expect(beforeUnloadHandler(quiet)).toBeUndefined();
    expect(quiet.defaultPrevented).toBe(false);

    uploads.start({ id: 'u1', name: 'coco8.zip' });
    expect(uploads.store.getState().inProgress).toBe(1);
    const busy = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    expect(beforeUnloadHandler(busy)).toBe(Messages.leavePrompt);
    expect(busy.defaultPrevented).toBe(true);

    uploads.finish('u1');
    expect(uploads.store.getState().inProgress).toBe(0);
  });
});
