/**
 * Billing e2e support: the local fake Stripe of the server tests (same wire format, same signed
 * webhooks) and a Sightline server process of its own, so a spec can run the real stack with
 * Stripe on (pointed at the fake) or off, whatever the shared e2e server is configured with.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMPILED_SERVER, copyServerTemplate } from './server-template';

export { FakeStripe, startFakeStripe, stripeEnv } from '../../apps/server/test/support/fake-stripe';

const root = path.resolve(import.meta.dirname, '../..');

export interface SpawnedServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The compiled server (ADR 0036; e2e/support/global-setup.ts builds it when stale) on `port` with a
 * fresh data folder; resolves once /alive answers. Unless `env` names a DATABASE_URL, the folder starts
 * as a copy of the run's template (an embedded PostgreSQL cluster made and migrated once by the global
 * set-up): a dozen spec servers do not each pay for initdb. The shared server of playwright.config.ts
 * still starts from nothing, through the sources.
 */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<SpawnedServer> {
  const busy = await fetch(`http://127.0.0.1:${port}/alive`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already taken (a server left over from an earlier run?)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sightline-e2e-${port}-`));
  fs.chmodSync(dataDir, 0o755); // open to other users, as cloud.spec.ts's own starter always made it
  if (!env.DATABASE_URL) copyServerTemplate(dataDir);
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, [COMPILED_SERVER], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: url, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: false,
  });
  // If the test worker dies without its afterAll, the server must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/alive`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`server on ${port} did not start`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      process.off('exit', killOnExit);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
