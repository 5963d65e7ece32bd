import { useEffect, useRef } from 'react';
import { LOGO_LOAD_WARNING_MS } from '@sightline/contracts';
import { createLogger } from './logger';

const log = createLogger('images');

/**
 * Spec §9 "logo-load warning 1000 ms": an item's logo (team image, project cover, profile image)
 * that has neither loaded nor failed LOGO_LOAD_WARNING_MS after it was asked for writes one warning
 * (what, which address, how long): a slow store or signed link shows in the console and monitoring
 * rather than as a blank square. Spread the answer on the <img> (Mantine `imageProps` / Image props).
 */
export function useLogoLoadWarning(src: string | null | undefined, what: string): { onLoad: () => void; onError: () => void } {
  const settled = useRef(false);
  useEffect(() => {
    settled.current = false;
    if (!src) return;
    const timer = setTimeout(() => {
      if (!settled.current) log.warn(`${what} not loaded after ${LOGO_LOAD_WARNING_MS} ms`, src.split('?')[0]);
    }, LOGO_LOAD_WARNING_MS);
    return () => clearTimeout(timer);
  }, [src, what]);
  const settle = () => {
    settled.current = true;
  };
  return { onLoad: settle, onError: settle };
}
