/**
 * `npm run lint` part: every key of the web app's locale files (apps/web/src/locales/en/*.json) is
 * used by the code, so dead texts ("coming soon" for what shipped or was dropped) do not linger.
 *
 * A key counts as used when the web sources (apps/web/src, locale files excluded) hold it as a
 * string literal — `'plan.title'`, or with its namespace `'billing:plan.title'` — or when a template
 * literal builds it from a literal start: `t(\`plans.${plan}\`)` uses every key under `plans.`.
 * i18next's plural forms (`_one`, `_other`, …) count as their base key. Keys built at run time in
 * some other way are declared in ALLOWED below, each with the reason.
 *
 * Namespaces are not told apart (a literal used in one namespace covers the same key in another):
 * the check finds texts nobody refers to, not wrong namespaces, which the web tests catch.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Key prefixes (namespace:key) built at run time from data, not from literals. */
export const ALLOWED: ReadonlyArray<{ prefix: string; why: string }> = [
  { prefix: 'errors:codes.', why: 'errorMessage() turns a server error code into `errors:codes.<code with / and . as _>`' },
];

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every leaf key of a locale file, dotted. */
export function leafKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix ? [prefix] : [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

/** The string literals and template-literal starts of some source text. */
export function referencesIn(source: string): { literals: Set<string>; prefixes: Set<string> } {
  const literals = new Set<string>();
  const prefixes = new Set<string>();
  for (const m of source.matchAll(/(['"])((?:[\w-]+:)?[\w-]+(?:\.[\w-]+)*)\1/g)) literals.add(m[2]!);
  for (const m of source.matchAll(/`((?:[\w-]+:)?[\w-]+(?:\.[\w-]+)*\.)\$\{/g)) prefixes.add(m[1]!);
  // `t(\`plan.${x}\`)` where the whole key is dynamic after a literal dot-less start: `${ns}` alone says nothing
  for (const m of source.matchAll(/`((?:[\w-]+:)?[\w-]+(?:\.[\w-]+)*)`/g)) literals.add(m[1]!);
  return { literals, prefixes };
}

export interface LocaleKey {
  ns: string;
  key: string;
}

/** The locale keys nothing refers to. */
export function unusedKeys(keys: LocaleKey[], sources: string[], allowed = ALLOWED): LocaleKey[] {
  const literals = new Set<string>();
  const prefixes = new Set<string>();
  for (const s of sources) {
    const r = referencesIn(s);
    r.literals.forEach((l) => literals.add(l));
    r.prefixes.forEach((p) => prefixes.add(p));
  }
  const strip = (s: string) => (s.includes(':') ? s.slice(s.indexOf(':') + 1) : s);
  const plainPrefixes = [...prefixes].map((p) => ({ full: p, plain: strip(p), ns: p.includes(':') ? p.slice(0, p.indexOf(':')) : null }));
  return keys.filter(({ ns, key }) => {
    const base = key.replace(PLURAL, '');
    const full = `${ns}:${base}`;
    if (allowed.some((a) => full.startsWith(a.prefix))) return false;
    if (literals.has(base) || literals.has(full)) return false;
    return !plainPrefixes.some((p) => (p.ns === null || p.ns === ns) && base.startsWith(p.plain));
  });
}

function filesUnder(dir: string, ext: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'locales' || e.name === 'node_modules' ? [] : filesUnder(p, ext);
    return ext.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Loads the locale files and the web sources under `webSrc` and returns the unused keys. */
export function checkLocales(webSrc: string): LocaleKey[] {
  const localeDir = path.join(webSrc, 'locales', 'en');
  const keys = fs
    .readdirSync(localeDir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => leafKeys(JSON.parse(fs.readFileSync(path.join(localeDir, f), 'utf8'))).map((key) => ({ ns: f.replace(/\.json$/, ''), key })));
  const sources = filesUnder(webSrc, /\.tsx?$/).map((f) => fs.readFileSync(f, 'utf8'));
  return unusedKeys(keys, sources);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '../..');
  const unused = checkLocales(path.join(root, 'apps/web/src'));
  if (unused.length) {
    console.error(`Unused locale keys (${unused.length}): remove them, use them, or declare a run-time prefix in scripts/arch/locale-keys.ts ALLOWED:`);
    for (const k of unused) console.error(`  ${k.ns}:${k.key}`);
    process.exit(1);
  }
  console.log('locale keys: every key is used');
}
