import { Messages } from '@sightline/contracts';
import { useEffect } from 'react';
import { createStore, useStore } from './create-store';

/** Upload entity of spec §3. Features register their resumable uploads here. */
export interface Upload {
  id: string;
  name: string;
  progress: number;
  paused: boolean;
}
export interface UploadsState {
  uploads: Upload[];
  inProgress: number;
}

const store = createStore<UploadsState>({ uploads: [], inProgress: 0 });
const count = (uploads: Upload[]) => uploads.filter((u) => u.progress < 1).length;

export const uploads = {
  store,
  start(upload: Omit<Upload, 'progress' | 'paused'>) {
    store.setState((s) => {
      const list = [...s.uploads.filter((u) => u.id !== upload.id), { ...upload, progress: 0, paused: false }];
      return { uploads: list, inProgress: count(list) };
    });
  },
  progress(id: string, progress: number, paused = false) {
    store.setState((s) => {
      const list = s.uploads.map((u) => (u.id === id ? { ...u, progress, paused } : u));
      return { uploads: list, inProgress: count(list) };
    });
  },
  finish(id: string) {
    store.setState((s) => {
      const list = s.uploads.filter((u) => u.id !== id);
      return { uploads: list, inProgress: count(list) };
    });
  },
};

export const useUploads = () => useStore(store);

/** The browser's leave prompt while uploads run (spec §2, §8). */
export function beforeUnloadHandler(event: BeforeUnloadEvent): string | undefined {
  if (store.getState().inProgress === 0) return undefined;
  event.preventDefault();
  // Legacy browsers show returnValue; modern ones show their own text.
  event.returnValue = Messages.leavePrompt;
  return Messages.leavePrompt;
}

export function useLeavePrompt(): void {
  useEffect(() => {
    window.addEventListener('beforeunload', beforeUnloadHandler);
    return () => window.removeEventListener('beforeunload', beforeUnloadHandler);
  }, []);
}
