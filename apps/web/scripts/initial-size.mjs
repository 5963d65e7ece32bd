// Gzipped size of the JS a first visit to a page downloads: the entry chunk, the page chunk and
// their static imports. Usage: node scripts/initial-size.mjs sign-in
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dir = new URL('../dist/assets/', import.meta.url).pathname;
const page = process.argv[2] ?? 'sign-in';
const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
const html = readFileSync(new URL('../dist/index.html', import.meta.url), 'utf8');
const entry = html.match(/assets\/(index-[^"]+\.js)/)[1];
const pageChunk = files.find((f) => f.startsWith(`${page}-`));
if (!pageChunk) throw new Error(`no chunk for ${page}`);

const seen = new Set();
const visit = (file) => {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(join(dir, file), 'utf8');
  // Static imports only (dynamic import() chunks load later).
  for (const m of code.matchAll(/(?:^|[;\s])import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) visit(m[1]);
};
visit(entry);
visit(pageChunk);
let total = 0;
for (const f of seen) total += gzipSync(readFileSync(join(dir, f))).length;
console.log(JSON.stringify({ page, chunks: [...seen], gzipKB: +(total / 1024).toFixed(1) }));
