import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';

/**
 * The settings every bench's own server runs with: production, jobs off, a fresh data folder made here
 * (`sightline-bench-<name>-…` in the temp folder; the caller removes it), on the embedded default
 * database or on DATABASE_URL when set.
 */
export function benchServerEnv(name: string): { dataDir: string; env: Record<string, string> } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sightline-bench-${name}-`));
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    JOBS_ENABLED: 'false',
    PORT: '0',
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  return { dataDir, env };
}

/**
 * A server in the bench's own process (app.inject: no sockets), production settings, jobs off, on a
 * fresh data folder; on the embedded default database or on DATABASE_URL when set. `call` throws on
 * any answer ≥ 400; `signUp` makes the bench's account and returns its cookie and id; `close` stops
 * the server and removes the folder.
 */
export async function inProcessHub(name: string) {
  const { dataDir, env } = benchServerEnv(name);
  const app = await buildApp({ config: loadConfig(env), logger: false });
  await app.ready();
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: unknown) => {
    const res = await app.inject({ method, url, headers, payload: payload as never });
    if (res.statusCode >= 400) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    return res;
  };
  const signUp = async () => {
    const signup = await call('POST', '/v1/auth/signup', {}, { email: 'bench@example.com', password: 'bench-pass-1', username: 'bench', firstName: 'Bench' });
    const cookie = String(signup.headers['set-cookie']).split(';')[0]!;
    const uid = (await call('GET', '/v1/users/me', { cookie })).json().data.uid as string;
    return { cookie, uid };
  };
  const close = async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { app, dataDir, call, signUp, close };
}
