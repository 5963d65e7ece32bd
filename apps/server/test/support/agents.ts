import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestApp } from './harness.js';
import { credit } from '../../src/modules/billing/billing.ledger.js';
import { newId } from '../../src/platform/ids.js';
import { parseNvidiaSmi } from '../../../agent/src/system.js';
import { buildAgent, buildUser } from './factories.js';

const AGENT_DIR = path.resolve(import.meta.dirname, '../../../agent');
const ROOT = path.resolve(AGENT_DIR, '../..');
export const STANDIN_YOLO = path.join(AGENT_DIR, 'test', 'yolo-standin.mjs');

/**
 * The `yolo` the agent runs in these tests: SIGHTLINE_TEST_YOLO when set (a path, or `standin`);
 * else the real ultralytics CLI where Python can import ultralytics and `yolo` is on PATH (a GPU
 * host, a developer box with `pip install ultralytics`); else the stand-in.
 */
export const YOLO = chooseYolo();
function chooseYolo() {
  const asked = process.env.SIGHTLINE_TEST_YOLO;
  if (asked) return asked === 'standin' ? STANDIN_YOLO : asked;
  const real = spawnSync('sh', ['-c', 'command -v yolo'], { encoding: 'utf8' }).stdout.trim();
  return real && pythonHasUltralytics() ? real : STANDIN_YOLO;
}
export const REAL_YOLO = YOLO !== STANDIN_YOLO;

export interface AgentProcess {
  child: ChildProcess;
  output(): string;
  workDir: string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Runs the real agent CLI (`node --import tsx apps/agent/src/cli.ts`) as its own process. */
export function startAgent(hub: string, token: string, opts: { env?: Record<string, string>; workDir?: string } = {}): AgentProcess {
  const workDir = opts.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sl-agent-'));
  let out = '';
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(AGENT_DIR, 'src', 'cli.ts'), '--hub', hub, '--token', token, '--yolo', YOLO, '--work-dir', workDir],
    {
      cwd: ROOT,
      // The stand-in nvidia-smi reports one RTX 4090 (real hosts have the real one first on PATH).
      env: { ...process.env, PATH: `${REAL_YOLO ? '' : `${path.join(AGENT_DIR, 'test', 'bin')}:`}${process.env.PATH}`, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    workDir,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function enableCloud(t: TestApp) {
  await t.database.db.execute(sql`INSERT INTO feature_flags (name, enabled) VALUES ('cloudTraining', true) ON CONFLICT (name) DO UPDATE SET enabled = true`);
}

/** The plan by hand (billing off) and money through the ledger, as an admin credit. */
export async function setPlanAndWallet(t: TestApp, userId: string, plan: string, walletMicro: number) {
  await t.database.db.execute(sql`UPDATE users SET plan = ${plan} WHERE id = ${userId}`);
  const now = await walletOf(t, userId);
  if (walletMicro > now) {
    await credit(t.app.ctx, {
      userId,
      kind: 'admin_credit',
      amount: walletMicro - now,
      idempotencyKey: `test-credit-${newId()}`,
      actorId: userId,
      reason: 'test wallet',
    });
  }
}

export async function walletOf(t: TestApp, userId: string) {
  const res = await t.database.db.execute(sql`SELECT wallet_balance FROM users WHERE id = ${userId}`);
  return Number((res as unknown as { rows: Array<{ wallet_balance: string | number }> }).rows[0]!.wallet_balance);
}

/** An admin (the first account of a fresh database is one) and a shared-pool agent token. */
export async function adminWithSharedToken(t: TestApp, name = 'gpu-1') {
  const admin = await buildUser(t.app);
  if (!admin.user.roles.includes('admin')) await t.database.db.execute(sql`UPDATE users SET roles = ARRAY['admin'] WHERE id = ${admin.user.id}`);
  return { admin, token: await newToken(t, admin.cookie, name, true) };
}

/** An agent registration and its token (factories.ts buildAgent). */
export const newToken = (t: TestApp, cookie: string, name: string, shared: boolean) => buildAgent(t.app, cookie, { name, shared });

export function pythonHasUltralytics() {
  return spawnSync('python3', ['-c', 'import ultralytics'], { stdio: 'ignore' }).status === 0;
}

export async function epochsDone(t: TestApp, modelId: string) {
  const res = await t.database.db.execute(sql`SELECT epochs_done FROM models WHERE id = ${modelId}`);
  return Number((res as unknown as { rows: Array<{ epochs_done: number }> }).rows[0]?.epochs_done ?? 0);
}

/** The `yolo` process the agent runs (its direct child: node for the stand-in, python for the real CLI). */
export function yoloChildOf(a: AgentProcess): number | null {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(a.child.pid)], { encoding: 'utf8' }).stdout.trim();
  const pid = Number(out.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The GPU the real host reports (SIGHTLINE_TEST_YOLO runs), to set up a GPU type that matches it. */
export function hostGpuName(): string | null {
  const res = spawnSync('nvidia-smi', ['--query-gpu=name,memory.total', '--format=csv,noheader,nounits'], { encoding: 'utf8' });
  return res.status === 0 ? (parseNvidiaSmi(res.stdout)[0]?.name ?? null) : null;
}
