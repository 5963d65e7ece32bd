/**
 * Start like a service (ADR 0036): how long a restart takes until `/ready` answers 200, and what the
 * idle server costs in memory, for the three ways to run it, measured in the same run:
 *
 *   service   `node apps/server/dist/main.js` (the documented service command, after `npm run build`)
 *   npm start `npm start` with nothing changed (builds nothing: both stamps match their sources)
 *   tsx       `node --import tsx apps/server/src/main.ts` (how the server ran before, as the reference)
 *
 * Each is started once on a fresh data folder (initdb of the embedded PostgreSQL, migrations), then
 * restarted RESTARTS times on that folder; the median restart is compared with its limit.
 * Targets: service restart ≤ 3 s; npm start with nothing changed ≤ 5 s; idle PSS of the server
 * process and its embedded PostgreSQL processes ≤ 220 MB (service command).
 *
 * Each restart also reports the CPU seconds its process tree (the command, the server, its embedded
 * PostgreSQL) used until /ready: on a loaded machine the wall time grows with the load and the CPU
 * seconds do not, so they tell a slow start from a busy machine (the load average is printed too).
 *
 * Prints ONE JSON line on stdout (run-all.ts collects it); progress on stderr.
 * Env: BENCH_RESTARTS (3).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { treeCpuSeconds } from './support/process-cpu.js';
import { treeMemoryMb } from './support/process-memory.js';

const root = path.resolve(import.meta.dirname, '..');
const log = (m: string) => process.stderr.write(`[startup] ${m}\n`);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const RESTARTS = Math.max(1, Number(process.env.BENCH_RESTARTS) || 3);

interface Way {
  name: 'service' | 'npmStart' | 'tsx';
  command: string;
  args: string[];
}
const WAYS: Way[] = [
  { name: 'service', command: process.execPath, args: ['apps/server/dist/main.js'] },
  { name: 'npmStart', command: 'npm', args: ['start', '--silent'] },
  { name: 'tsx', command: process.execPath, args: ['--import', 'tsx', 'apps/server/src/main.ts'] },
];

/** Starts the command in its own process group and resolves with the seconds until /ready is 200. */
async function startOnce(way: Way, env: NodeJS.ProcessEnv, base: string): Promise<{ proc: ChildProcess; seconds: number; cpuSeconds: number }> {
  const t0 = performance.now();
  const proc = spawn(way.command, way.args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${way.name} exited with ${proc.exitCode} before it was ready`);
    if (
      await fetch(`${base}/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (performance.now() - t0 > 120_000) throw new Error(`${way.name} was not ready after 120 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { proc, seconds: (performance.now() - t0) / 1000, cpuSeconds: treeCpuSeconds(proc.pid!).total };
}

/** SIGTERM to the group (npm and its children), then waits for the whole group to be gone. */
async function stop(proc: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  try {
    process.kill(-proc.pid!, 'SIGTERM');
  } catch {
    /* gone */
  }
  const code = await exited;
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(-proc.pid!, 0);
      await new Promise((r) => setTimeout(r, 50));
    } catch {
      break;
    }
  }
  return code;
}

async function main() {
  log('building what is stale (npm run build)…');
  execFileSync(process.execPath, ['scripts/start.mjs', '--build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  const results: Record<
    string,
    {
      firstStartS: number;
      restartsS: number[];
      medianRestartS: number;
      restartsCpuS: number[];
      load1: number[];
      exitCodes: (number | null)[];
      idle?: ReturnType<typeof treeMemoryMb>;
    }
  > = {};
  for (const way of WAYS) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-startup-'));
    const port = 3800 + Math.floor(Math.random() * 400);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      EXPORT_WORKER: 'off',
    };
    const base = `http://127.0.0.1:${port}`;
    try {
      const first = await startOnce(way, env, base);
      const exitCodes = [await stop(first.proc)];
      const restarts: number[] = [];
      const restartsCpu: number[] = [];
      const load1: number[] = [];
      let idle: ReturnType<typeof treeMemoryMb> | undefined;
      for (let i = 0; i < RESTARTS; i++) {
        const run = await startOnce(way, env, base);
        restarts.push(run.seconds);
        restartsCpu.push(run.cpuSeconds);
        load1.push(round(os.loadavg()[0]!));
        if (way.name === 'service' && i === RESTARTS - 1) {
          await new Promise((r) => setTimeout(r, 5000));
          idle = treeMemoryMb(run.proc.pid!);
        }
        exitCodes.push(await stop(run.proc));
      }
      results[way.name] = {
        firstStartS: round(first.seconds),
        restartsS: restarts.map((s) => round(s)),
        medianRestartS: round(median(restarts)),
        restartsCpuS: restartsCpu.map((s) => round(s)),
        load1,
        exitCodes,
        idle,
      };
      log(
        `${way.name}: first start ${round(first.seconds)} s, restarts ${restarts.map((s) => round(s)).join(', ')} s (CPU ${restartsCpu.map((s) => round(s)).join(', ')} s, load ${load1.join(', ')}), exit codes on SIGTERM ${exitCodes.join(',')}`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const service = results.service!;
  const npmStart = results.npmStart!;
  const targets = {
    serviceRestartS: { value: service.medianRestartS, limit: 3, ratio: round(service.medianRestartS / 3), ok: service.medianRestartS <= 3 },
    npmStartUnchangedS: { value: npmStart.medianRestartS, limit: 5, ratio: round(npmStart.medianRestartS / 5), ok: npmStart.medianRestartS <= 5 },
    idlePssMB: { value: service.idle!.pss, limit: 220, ratio: round(service.idle!.pss / 220), ok: service.idle!.pss <= 220 },
    cleanExitOnSigterm: { value: service.exitCodes.filter((c) => c !== 0).length, limit: 0, ok: service.exitCodes.every((c) => c === 0) },
  };
  for (const [name, v] of Object.entries(targets))
    log(`${v.ok ? 'PASS' : 'FAIL'} ${name}: ${v.value} (limit ${v.limit}${'ratio' in v ? `, ${v.ratio}×` : ''})`);
  log(
    `tsx reference: restart ${results.tsx!.medianRestartS} s → the service command takes ${round(service.medianRestartS / results.tsx!.medianRestartS)}× of it`,
  );
  console.log(JSON.stringify({ bench: 'startup', load: os.loadavg().map((x) => round(x)), results, targets }));
  if (!Object.values(targets).every((t) => t.ok)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
