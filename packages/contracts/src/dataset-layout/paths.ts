/**
 * Entry-name helpers. Pure (no `node:path`): archive names are always `/`-separated whatever the
 * host, and this file also runs in the browser.
 */

export type NormalizedName = { ok: true; name: string; isDirectory: boolean } | { ok: false; reason: string };

/**
 * Turns a raw archive name into a safe relative path, or says why it is unsafe. Backslashes count as
 * separators because Windows tools write them and extractors honour them, which is how `..\` slips
 * past a check that only looks for `../`.
 */
export function normalizeEntryName(raw: string): NormalizedName {
  if (raw.includes('\0')) return { ok: false, reason: 'contains a NUL character' };
  const control = CONTROL_CHAR.exec(raw);
  if (control) return { ok: false, reason: `contains a control character (${escapeChar(control[0])})` };
  const slashed = raw.replace(/\\/g, '/');
  if (slashed.startsWith('/')) return { ok: false, reason: 'is an absolute path' };
  if (/^[a-zA-Z]:/.test(slashed)) return { ok: false, reason: 'starts with a drive letter' };
  const segments: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return { ok: false, reason: 'climbs out of the archive with ".."' };
    segments.push(segment);
  }
  return { ok: true, name: segments.join('/'), isDirectory: slashed.endsWith('/') };
}

/** C0 and C1 control characters and DEL: no honest file name holds them, and terminals and logs act on them. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;
const escapeChar = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * A name as it may be shown and stored: control characters become `\xNN` escapes (PostgreSQL refuses
 * NUL in text, and terminals act on the others), so a message about a hostile entry still names it.
 */
export function printableName(raw: string): string {
  return raw.replace(CONTROL_CHARS, escapeChar);
}

export const basename = (name: string): string => name.slice(name.lastIndexOf('/') + 1);
export const dirname = (name: string): string => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : '');
/** Lower-case suffix without the dot, `''` when there is none. */
export function extname(name: string): string {
  // On the whole name, not a basename copy: called once or twice per entry of archives of 100,000s (ADR 0042).
  const dot = name.lastIndexOf('.');
  return dot > name.lastIndexOf('/') + 1 ? name.slice(dot + 1).toLowerCase() : '';
}
export function stem(name: string): string {
  const base = basename(name);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
export const join = (...parts: string[]): string => parts.filter((p) => p !== '').join('/');

/**
 * Resolves `rel` against the folder `base` (both archive-relative). Returns null when the result would
 * leave the archive, so callers can try the next interpretation.
 */
export function resolvePath(base: string, rel: string): string | null {
  const out = base === '' ? [] : base.split('/');
  for (const segment of rel.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/**
 * Files that operating systems and tools add and users never meant to upload: macOS resource forks
 * (`__MACOSX/`, `._x.jpg`), `.DS_Store`, hidden folders such as `.git/`, Windows thumbnails.
 */
export function isJunk(name: string): boolean {
  // Most names have no segment starting with "." and no tool's file name: answer without splitting them (ADR 0042).
  const baseLength = name.length - name.lastIndexOf('/') - 1;
  if (name.charCodeAt(0) !== 0x2e && !name.includes('/.') && !name.includes('__MACOSX') && baseLength !== 9 && baseLength !== 11) return false;
  for (const segment of name.split('/')) {
    if (segment.startsWith('.') || segment === '__MACOSX') return true;
  }
  const base = basename(name).toLowerCase();
  return base === 'thumbs.db' || base === 'desktop.ini';
}
