import { formatBytes } from '@sightline/contracts';

/** File size in 1024 steps up to YB (spec §9). */
export function FileSize({ bytes, decimals }: { bytes: number; decimals?: number }) {
  return <span title={`${bytes} bytes`}>{formatBytes(bytes, decimals)}</span>;
}
