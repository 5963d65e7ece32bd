import { lazy, type ComponentType } from 'react';
import { session } from '../lib/storage';
import { createLogger } from '../lib/logger';

const log = createLogger('router');
export const CHUNK_RELOAD_KEY = 'sightline.chunk-reload';

const currentTarget = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/**
 * A lazy page. When its chunk fails to load (typically after a new deploy), the browser reloads
 * the target path once; the sessionStorage mark stops a reload loop, and a second failure reaches
 * the route's error boundary.
 */
export function lazyPage<P extends object>(
  loader: () => Promise<{ default: ComponentType<P> }>,
  reload: (target: string) => void = (target) => window.location.assign(target),
) {
  return lazy(async () => {
    try {
      const mod = await loader();
      session.remove(CHUNK_RELOAD_KEY);
      return mod;
    } catch (error) {
      const target = currentTarget();
      if (session.get(CHUNK_RELOAD_KEY) !== target) {
        log.warn(`page chunk failed, reloading ${target}`, error);
        session.set(CHUNK_RELOAD_KEY, target);
        reload(target);
        return new Promise<never>(() => {});
      }
      session.remove(CHUNK_RELOAD_KEY);
      throw error;
    }
  });
}
