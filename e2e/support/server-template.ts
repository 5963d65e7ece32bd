/**
 * What the spec servers start from (e2e/support/fake-stripe.ts startServer): the compiled server
 * (ADR 0036), and a data folder template holding an embedded PostgreSQL cluster, initialised and
 * migrated once per run by the global set-up (a fresh cluster costs initdb, 5–10 s on a busy 2-core
 * machine, for each of the dozen servers the specs start). The template is made by this run's
 * compiled server from this checkout's migrations, so it can never be older than the code.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
export const COMPILED_SERVER = path.join(root, 'apps/server/dist/main.js');
/** The data folder entries a started server may reuse: the cluster and its password (not the session secret, uploads or blobs). */
const TEMPLATE_ENTRIES = ['postgres', 'postgres.secret'];

/** Where this run's template lives; the global set-up exports it to the workers as E2E_SERVER_TEMPLATE. */
export const templateDir = (port: number) => path.join(os.tmpdir(), `sightline-e2e-template-${port}`);

/** Copies the template into a new server's data folder (`cp -a`: the cluster keeps its owner and modes). */
export function copyServerTemplate(dataDir: string) {
  const template = process.env.E2E_SERVER_TEMPLATE;
  if (!template || !fs.existsSync(path.join(template, 'postgres'))) return; // no global set-up: a fresh cluster
  execFileSync('cp', ['-a', ...TEMPLATE_ENTRIES.map((e) => path.join(template, e)), dataDir]);
}

/** Builds the server bundle when stale, then starts it once on `port` in a new folder and stops it: the folder is the template. */
export async function makeServerTemplate(port: number): Promise<string> {
  execFileSync(process.execPath, [path.join(root, 'scripts/start.mjs'), '--build-server'], { cwd: root, stdio: 'inherit' });
  const dir = templateDir(port);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const child = spawn(process.execPath, [COMPILED_SERVER], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'warn', NODE_ENV: 'test' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`template server on ${port} exited with ${child.exitCode}`);
      if (
        await fetch(`http://127.0.0.1:${port}/alive`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error(`template server on ${port} did not start`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    child.kill('SIGTERM'); // a clean stop: the cluster is shut down, not left to crash recovery
    await exited;
  }
  for (const entry of fs.readdirSync(dir)) if (!TEMPLATE_ENTRIES.includes(entry)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  return dir;
}
