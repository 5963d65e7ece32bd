// `npm start` and `npm run build`: build what is stale, by content hash, then (start) run the compiled
// server in this same process. The service command is `node apps/server/dist/main.js` after
// `npm run build` (docs/deploy.md; ADR 0036): no npm, no tsx, no rebuild between restarts.
//
//   node scripts/start.mjs          build the web bundle and the server when their sources changed, then run
//   node scripts/start.mjs --build  only build what is stale (npm run build; CI and deploys)
//   node scripts/start.mjs --build-server  only the server bundle, if stale (the scale-out suite)
//
// Plain JavaScript on purpose: it must run before anything is compiled, without a TypeScript loader.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_SRC = path.join(ROOT, 'apps/server/src');
const SERVER_DIST = path.join(ROOT, 'apps/server/dist');
const WEB = path.join(ROOT, 'apps/web');
const CONTRACTS = path.join(ROOT, 'packages/contracts');

const SKIP = new Set(['node_modules', 'dist', '.vite', 'test', 'coverage']);
const isTestFile = (f) => /\.test\.tsx?$|\.contract\.ts$/.test(f);

/** Every file under the given roots (tests left out) with its bytes, in a stable order. */
function hashTree(roots, extraFiles = []) {
  const hash = createHash('sha256');
  const files = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && !isTestFile(entry.name)) files.push(full);
    }
  };
  roots.forEach(walk);
  files.push(...extraFiles.filter((f) => fs.existsSync(f)));
  files.sort();
  for (const f of files) {
    hash.update(path.relative(ROOT, f));
    hash.update('\0');
    hash.update(fs.readFileSync(f));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function stale(stampFile, digest) {
  try {
    return fs.readFileSync(stampFile, 'utf8').trim() !== digest;
  } catch {
    return true;
  }
}

function buildWeb() {
  const stamp = path.join(WEB, 'dist/.source-hash');
  const digest = hashTree(
    [path.join(WEB, 'src'), path.join(WEB, 'public'), path.join(CONTRACTS, 'src')],
    ['index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'].map((f) => path.join(WEB, f)),
  );
  if (!stale(stamp, digest)) return false;
  const t0 = Date.now();
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const res = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: WEB, stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`web build failed (exit ${res.status})`);
  fs.writeFileSync(stamp, `${digest}\n`);
  console.log(`sightline: web bundle built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return true;
}

/**
 * The server bundled by esbuild: app code and @sightline/contracts inlined, npm packages left as
 * imports, code split so main.ts still loads monitoring before the app (Sentry's order). Each
 * `import.meta.dirname` is rewritten to the source file's folder, relative to the bundle, so the
 * SQL migrations, the web bundle and the agent are found where they are in the tree.
 */
async function buildServer() {
  const stamp = path.join(SERVER_DIST, '.source-hash');
  const digest = hashTree([SERVER_SRC, path.join(CONTRACTS, 'src')], [path.join(ROOT, 'apps/server/package.json'), path.join(ROOT, 'package-lock.json')]);
  if (!stale(stamp, digest)) return false;
  const t0 = Date.now();
  const esbuild = await import('esbuild');
  fs.rmSync(SERVER_DIST, { recursive: true, force: true });
  const dirnamePlugin = {
    name: 'sightline-paths',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@sightline/') ? undefined : { path: args.path, external: true }));
      build.onLoad({ filter: /apps\/server\/src\/.*\.ts$/ }, (args) => {
        let text = fs.readFileSync(args.path, 'utf8');
        if (text.includes('import.meta.dirname')) {
          const rel = path.relative(SERVER_DIST, path.dirname(args.path)).split(path.sep).join('/');
          text = text.replaceAll(
            'import.meta.dirname',
            `decodeURIComponent(new URL(${JSON.stringify(`${rel}/`)}, import.meta.url).pathname).replace(/\\/$/, '')`,
          );
        }
        return { contents: text, loader: 'ts' };
      });
    },
  };
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { main: path.join(SERVER_SRC, 'main.ts'), 'endpoint.worker': path.join(SERVER_SRC, 'modules/inference/endpoint.worker.ts') },
    outdir: SERVER_DIST,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    plugins: [dirnamePlugin],
  });
  fs.writeFileSync(path.join(SERVER_DIST, 'package.json'), '{ "type": "module" }\n');
  fs.writeFileSync(stamp, `${digest}\n`);
  console.log(`sightline: server compiled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return true;
}

const serverOnly = process.argv.includes('--build-server');
const buildOnly = serverOnly || process.argv.includes('--build');
if (!serverOnly) buildWeb();
await buildServer();
if (!buildOnly) {
  // Stack traces point at the TypeScript sources.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(path.join(SERVER_DIST, 'main.js')).href);
}
