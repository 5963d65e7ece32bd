/**
 * What PostgreSQL will store. It refuses U+0000 in `text` and in `jsonb` strings ("invalid byte
 * sequence" / "unsupported Unicode escape sequence"), so a message quoting hostile input (an archive
 * entry name, an exception text) must be made storable before it is written, or the write that records
 * a failure fails itself and leaves its row stuck. Other control characters are stored fine but act on
 * terminals and logs, so they are escaped too (tab and newline stay).
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Lone surrogates cannot be encoded as UTF-8 either. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` as PostgreSQL stores it: control characters as `\xNN`, lone surrogates as U+FFFD, at most `max` characters. */
export function storableText(text: string, max = 2000): string {
  const clean = text.replace(UNSAFE, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).replace(LONE_SURROGATE, '\ufffd');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** A JSON value whose every string (keys included) is storable; depth-first, iterative-safe for normal reports. */
export function storableJson<T>(value: T): T {
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return storableText(v, 100_000);
    if (v === null || typeof v !== 'object' || depth > 64) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[storableText(k, 1000)] = walk(x, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
