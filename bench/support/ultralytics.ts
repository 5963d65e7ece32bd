import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The real ultralytics client's env script (legacy generation, 8.3.x), found as the client suite finds it
 * (ADR 0027): SIGHTLINE_CLIENTS=DIR, else <repo>/.clients, else built there by ../shared/clients/setup.sh.
 * Null with the reason when none can run here (the bench then prints a skip line).
 */
export function ultralyticsEnv(): { env: string } | { skipped: string } {
  const dirs = [process.env.SIGHTLINE_CLIENTS, path.join(root, '.clients')].filter((d): d is string => !!d);
  for (const dir of dirs) {
    const env = path.join(path.resolve(dir), 'legacy', 'env.sh');
    if (fs.existsSync(env)) return { env };
  }
  const setup = path.resolve(root, '../shared/clients/setup.sh');
  if (!fs.existsSync(setup)) return { skipped: `no ultralytics client: no SIGHTLINE_CLIENTS, no ${path.join(root, '.clients')}, no ${setup}` };
  try {
    execFileSync('bash', [setup, path.join(root, '.clients')], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (err) {
    return { skipped: `${setup} failed: ${(err as Error).message.split('\n')[0]}` };
  }
  const env = path.join(root, '.clients', 'legacy', 'env.sh');
  return fs.existsSync(env) ? { env } : { skipped: `${setup} built no ${env}` };
}

/**
 * Runs a Python script with the client's environment (its `$PY`) and returns the last JSON line it printed.
 * Its stderr (ultralytics' progress) is dropped unless it fails.
 */
export function runPython<T>(env: string, script: string, args: string[], timeoutMs = 600_000): T {
  const out = execFileSync('bash', ['-c', `. "$0" && exec "$PY" -c "$1" "\${@:2}"`, env, script, ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = out
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (!line) throw new Error(`the Python script printed no JSON line: ${out.slice(-500)}`);
  return JSON.parse(line) as T;
}
