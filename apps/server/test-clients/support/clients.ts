/**
 * Where the real ultralytics clients are (docs/testing-clients.md):
 *   1. SIGHTLINE_CLIENTS=DIR — a folder holding legacy/env.sh and/or platform/env.sh (built by
 *      shared/clients/setup.sh DIR);
 *   2. ../shared/clients/setup.sh beside the checkout — built into <repo>/.clients (idempotent: the
 *      suite's global setup runs it once, ~3 minutes the first time on a fresh machine);
 *   3. a pip-installed `yolo` on PATH of a known version (8.3.x → legacy, ≥ 8.4.115 → platform).
 * None of these: the suite skips with a printed reason — except under CI, where it fails.
 */
import { execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type Generation = 'legacy' | 'platform';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
export const SHARED_CLIENTS = path.resolve(REPO_ROOT, '../shared/clients');

export interface Client {
  generation: Generation;
  /** Shell prefix that puts this generation's `yolo` and Python on PATH (empty for a pip install on PATH). */
  envScript: string | null;
  /** ultralytics version the client reports. */
  version: string;
}

export interface Clients {
  legacy: Client | null;
  platform: Client | null;
  /** Why a generation is missing (printed by the suite). */
  reasons: string[];
}

function fromDir(dir: string): Clients {
  const out: Clients = { legacy: null, platform: null, reasons: [] };
  for (const generation of ['legacy', 'platform'] as const) {
    const env = path.join(dir, generation, 'env.sh');
    if (!fs.existsSync(env)) {
      out.reasons.push(`${generation}: no ${env}`);
      continue;
    }
    const version = execFileSync('bash', ['-c', `. ${env} && $PY -c 'import ultralytics; print(ultralytics.__version__)'`], {
      encoding: 'utf8',
    }).trim();
    out[generation] = { generation, envScript: env, version };
  }
  return out;
}

function fromPath(): Clients {
  const out: Clients = { legacy: null, platform: null, reasons: [] };
  try {
    const version = execFileSync('yolo', ['version'], { encoding: 'utf8', timeout: 60_000 }).trim().split(/\s+/).pop() ?? '';
    const [maj, min, patch] = version.split('.').map(Number);
    if (maj === 8 && min === 3) out.legacy = { generation: 'legacy', envScript: null, version };
    else if (maj === 8 && (min > 4 || (min === 4 && patch >= 115))) out.platform = { generation: 'platform', envScript: null, version };
    else out.reasons.push(`yolo on PATH reports ${version}: not a known version (8.3.x or >= 8.4.115)`);
  } catch {
    out.reasons.push('no yolo on PATH');
  }
  return out;
}

/** Builds (when needed) and finds the clients. Call from the suite's global setup. */
export function locateClients(): Clients {
  const setting = process.env.SIGHTLINE_CLIENTS;
  if (setting) return fromDir(path.resolve(setting));
  const setup = path.join(SHARED_CLIENTS, 'setup.sh');
  if (fs.existsSync(setup)) {
    const dir = path.join(REPO_ROOT, '.clients');
    execFileSync('bash', [setup, dir], { stdio: 'inherit' });
    return fromDir(dir);
  }
  const onPath = fromPath();
  onPath.reasons.unshift(`no SIGHTLINE_CLIENTS setting and no ${setup}`);
  return onPath;
}

/** The clients found by global setup (passed through the environment to test files). */
export function clients(): Clients {
  const raw = process.env.SIGHTLINE_CLIENTS_FOUND;
  if (!raw) return locateClients();
  return JSON.parse(raw) as Clients;
}

/** A shell command line that runs `cmd` with the given generation's client on PATH. */
export function withClient(client: Client, cmd: string): string {
  return client.envScript ? `. ${client.envScript} && ${cmd}` : cmd;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a shell command line with the client on PATH; resolves when it exits (never rejects). */
export function runClient(client: Client, cmd: string, options: SpawnOptions & { timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', withClient(client, cmd)], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : null;
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
