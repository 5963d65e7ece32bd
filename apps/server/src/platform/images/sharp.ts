import { createRequire } from 'node:module';
import type Sharp from 'sharp';

let loaded: typeof Sharp | null = null;

/**
 * `sharp(input, options)`, with sharp (libvips) loaded on the first image call rather than at start:
 * a server that has not touched an image yet keeps about 11 MB less in memory.
 */
export function sharp(input?: Sharp.SharpInput, options?: Sharp.SharpOptions): Sharp.Sharp {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('sharp') as typeof Sharp;
    // No libvips operation cache: every call here has new input bytes (a preview, a probe, an image to
    // predict on), so the cache never answers; keeping it cost ~7% of a preview's CPU in hashing and
    // bookkeeping and up to 50 MB of kept results (measured, ADR 0043).
    loaded.cache(false);
  }
  return loaded(input, options);
}
