import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { newId, sha256 } from '../../platform/ids.js';
import { agentQueries } from '../agents/agents.service.js';

/**
 * The built-in export worker (ADR 0022): on a machine where the ultralytics CLI runs, the server
 * runs exports itself, so an uploaded or client-trained `.pt` gets its ONNX file (and Preview works)
 * with nothing else installed. It is the agent (`apps/agent`, the same `sightline-agent` process a
 * GPU host runs) started as a child of the server with a token of its own agent row, which is
 * marked `builtin` and takes export jobs only. Probed after the server listens (`yolo version`,
 * never awaited by start-up), started on the first export job, stopped with the server.
 */

export type ExportWorkerState = 'off' | 'probing' | 'unavailable' | 'ready' | 'running' | 'revoked';

const AGENT_BIN = path.resolve(import.meta.dirname, '../../../../agent/bin/sightline-agent.mjs');
const PROBE_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 15_000;

/** `yolo version` prints the version on its last line (after possible warnings). */
function probeVersion(yolo: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(yolo, ['version'], { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (err, stdout) => {
      const last =
        String(stdout ?? '')
          .trim()
          .split('\n')
          .pop()
          ?.trim() ?? '';
      resolve(!err && /^\d+\.\d+\.\d+/.test(last) ? last.split(/\s+/)[0]! : null);
    });
  });
}

export class ExportWorker {
  state: ExportWorkerState;
  reason: string | null;
  version: string | null = null;
  private child: ChildProcess | null = null;
  private exited: Promise<void> | null = null;
  private hub: string | null = null;
  private starting: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly ctx: AppContext) {
    const on = ctx.config.exportWorker.enabled;
    this.state = on ? 'probing' : 'off';
    this.reason = on ? null : 'The built-in export worker is turned off (EXPORT_WORKER=off)';
  }

  /** The agent process while it runs. */
  get pid() {
    return this.child?.pid ?? null;
  }

  private get yolo() {
    return this.ctx.config.exportWorker.yolo;
  }

  /** After listen: can this machine run `yolo`? Then start at once if exports are already waiting. */
  async probe(hub: string) {
    this.hub = hub;
    if (this.state !== 'probing') return;
    const version = await probeVersion(this.yolo);
    if (this.closed) return;
    if (!version) {
      this.state = 'unavailable';
      this.reason = `\`${this.yolo} version\` did not run here: install ultralytics (pip install ultralytics) or set EXPORT_WORKER_YOLO`;
      this.ctx.log.info({ yolo: this.yolo }, 'built-in export worker unavailable: ultralytics not found');
      return;
    }
    if (!fs.existsSync(AGENT_BIN)) {
      this.state = 'unavailable';
      this.reason = `The agent is not installed beside the server (${AGENT_BIN})`;
      return;
    }
    this.version = version;
    this.state = 'ready';
    this.reason = null;
    this.ctx.log.info({ yolo: this.yolo, ultralytics: version }, 'built-in export worker ready (starts with the first export)');
    if (await agentQueries.queuedExportJobs(this.ctx.db)) await this.start();
  }

  /** An export job was queued: the worker starts when it is ready and not running yet. */
  exportQueued() {
    if (this.state === 'ready') void this.start().catch((err: unknown) => this.ctx.log.warn({ err }, 'built-in export worker did not start'));
  }

  private start() {
    this.starting ??= this.launch().finally(() => (this.starting = null));
    return this.starting;
  }

  private async launch() {
    if (this.state !== 'ready' || !this.hub || this.closed) return;
    const hostname = os.hostname();
    const row = await agentQueries.builtinAgent(this.ctx.db, hostname);
    if (row?.revokedAt) {
      this.state = 'revoked';
      this.reason = 'An admin revoked the built-in export worker';
      return;
    }
    // A fresh token per start, known only to this process and its child (stored hashed).
    const token = `sla_${randomBytes(20).toString('hex')}`;
    const auth = { tokenHash: sha256(token), tokenPrefix: token.slice(0, 10) };
    if (row) await agentQueries.updateAgent(this.ctx.db, row.id, auth);
    else {
      await agentQueries.insertAgent(this.ctx.db, {
        id: newId(),
        name: `Built-in export worker (${hostname})`,
        ownerUserId: null,
        createdBy: 'system',
        hostname,
        builtin: true,
        createdAt: this.ctx.clock.now(),
        ...auth,
      });
    }
    const child = spawn(process.execPath, [AGENT_BIN], {
      env: {
        ...process.env,
        SIGHTLINE_HUB: this.hub,
        SIGHTLINE_AGENT_TOKEN: token,
        SIGHTLINE_YOLO: this.yolo,
        SIGHTLINE_WORK_DIR: path.join(this.ctx.config.dataDir, 'export-worker'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.state = 'running';
    const log = (b: Buffer) => {
      for (const line of b.toString('utf8').split('\n')) if (line.trim()) this.ctx.log.info({ exportWorker: child.pid }, line.replace(/^\S+Z /, ''));
    };
    child.stdout!.on('data', log);
    child.stderr!.on('data', log);
    this.exited = new Promise<void>((resolve) => {
      child.once('error', (err) => {
        this.ctx.log.warn({ err }, 'built-in export worker could not run');
        resolve();
      });
      child.once('exit', () => resolve());
    }).then(async () => {
      this.child = null;
      if (this.closed) return;
      // Revoked by an admin (the agent stops on 401): stays off. Otherwise the next export restarts it.
      const after = await agentQueries.builtinAgent(this.ctx.db, hostname).catch(() => null);
      this.state = after?.revokedAt ? 'revoked' : 'ready';
      this.reason = after?.revokedAt ? 'An admin revoked the built-in export worker' : null;
    });
  }

  async close() {
    this.closed = true;
    await this.starting?.catch(() => undefined);
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

const workers = new WeakMap<AppContext, ExportWorker>();

/** This instance's built-in export worker (null before the exports routes are registered). */
export function exportWorkerOf(ctx: AppContext): ExportWorker | null {
  return workers.get(ctx) ?? null;
}

/** The address the child agent reaches this server at (loopback when listening on every address). */
function loopbackUrl(app: FastifyInstance): string | null {
  const address = app.server.address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') return null;
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Hooks the built-in export worker into the app: probed once the server listens (in the
 * background, so start-up never waits for Python), stopped when the app closes. Off unless
 * EXPORT_WORKER allows it (default on, off under NODE_ENV=test).
 */
export function attachExportWorker(app: FastifyInstance, ctx: AppContext) {
  const worker = new ExportWorker(ctx);
  workers.set(ctx, worker);
  app.addHook('onListen', async () => {
    const hub = loopbackUrl(app);
    if (hub) setImmediate(() => void worker.probe(hub).catch((err: unknown) => ctx.log.warn({ err }, 'built-in export worker probe failed')));
  });
  app.addHook('onClose', async () => worker.close());
  return worker;
}
