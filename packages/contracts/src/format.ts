import { ROBOT_IMAGES } from './constants.js';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** File sizes up to YB in 1024 steps (spec §9). */
export function formatBytes(bytes: number, decimals = 1): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : decimals;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** Stable choice of one of the six robot images from an email (spec §3). */
export function robotImageFor(email: string): string {
  let hash = 0;
  for (const ch of email.trim().toLowerCase()) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `/robots/${ROBOT_IMAGES[hash % ROBOT_IMAGES.length]}.svg`;
}
