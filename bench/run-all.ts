/**
 * Entry of `npm run bench`: runs every bench/*.bench.ts (sorted by name) one after another, each in
 * its own tsx child process under a timeout, so a bench that crashes or hangs is reported and the
 * others still run. Sequential on purpose: parallel benches would compete for the same CPUs and
 * skew each other's numbers.
 *
 * Contract for a bench script: print its result as one JSON object with a `bench` field on a line
 * of stdout (the last such line wins), progress on stderr, and exit non-zero when it failed.
 *
 * Usage: npm run bench [-- <name filter>...]   e.g. `npm run bench -- users-me`
 * Env: BENCH_TIMEOUT_S per bench (default 300).
 * Writes bench/results/latest.json (git-ignored) with every run, failed ones included.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface Run {
  file: string;
  status: 'ok' | 'failed' | 'timeout';
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  result: unknown;
  error?: string;
  /** the end of the bench's stderr, kept for failed runs so latest.json shows why */
  stderrTail?: string;
}

const BENCH_DIR = import.meta.dirname;
const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const TIMEOUT_MS = (Number(process.env.BENCH_TIMEOUT_S) > 0 ? Number(process.env.BENCH_TIMEOUT_S) : 300) * 1000;
/** After SIGTERM a bench gets this long to clean up (close servers, drop schemas) before SIGKILL. */
const KILL_GRACE_MS = 10_000;
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');

const filters = process.argv.slice(2);
const files = fs
  .readdirSync(BENCH_DIR)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((q) => f.includes(q)))
  .sort();

let current: { pid: number } | null = null;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    if (current) killGroup(current.pid, 'SIGTERM');
    process.exit(code);
  });
}

/** Benches run in their own process group: tsx starts a second node process, and both must go. */
function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** The last stdout line that is a JSON object naming its bench. */
function parseResult(stdout: string): unknown {
  for (const line of stdout.trim().split('\n').reverse()) {
    try {
      const value: unknown = JSON.parse(line);
      if (value && typeof value === 'object' && 'bench' in value) return value;
    } catch {
      /* not a result line */
    }
  }
  return null;
}

function runBench(file: string): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX_CLI, path.join(BENCH_DIR, file)], {
      cwd: BENCH_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    current = child.pid ? { pid: child.pid } : null;
    let stdout = '';
    let stderrTail = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-4000);
    });

    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`[run-all] ${file}: over ${TIMEOUT_MS / 1000}s, stopping it\n`);
      if (child.pid) {
        const pid = child.pid;
        killGroup(pid, 'SIGTERM');
        killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
      }
    }, TIMEOUT_MS);

    const finish = (exitCode: number | null, signal: string | null, spawnError?: Error) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      current = null;
      const result = parseResult(stdout);
      const status: Run['status'] = timedOut ? 'timeout' : exitCode === 0 && result && !spawnError ? 'ok' : 'failed';
      const run: Run = { file, status, exitCode, signal, durationMs: Date.now() - started, result };
      if (status !== 'ok') {
        run.error = spawnError
          ? spawnError.message
          : timedOut
            ? `timed out after ${TIMEOUT_MS / 1000}s`
            : !result
              ? `exited ${exitCode ?? signal} without a result line`
              : `exited ${exitCode ?? signal}`;
        run.stderrTail = stderrTail;
      }
      resolve(run);
    };
    child.once('error', (err) => finish(null, null, err));
    child.once('close', (code, signal) => finish(code, signal));
  });
}

if (files.length === 0) {
  process.stderr.write(`[run-all] no *.bench.ts in ${BENCH_DIR}${filters.length ? ` matching ${filters.join(', ')}` : ''}\n`);
  process.exit(1);
}

const startedAt = new Date();
const runs: Run[] = [];
for (const file of files) {
  process.stderr.write(`[run-all] ${file}\n`);
  const run = await runBench(file);
  runs.push(run);
  if (run.result) process.stdout.write(`${JSON.stringify(run.result, null, 2)}\n`);
  if (run.status !== 'ok') process.stderr.write(`[run-all] ${file} ${run.status.toUpperCase()}: ${run.error}\n`);
}

const report = {
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  host: { node: process.version, platform: `${os.platform()} ${os.release()}`, arch: os.arch(), cpu: os.cpus()[0]?.model ?? 'unknown', cpus: os.cpus().length },
  runs,
};
fs.mkdirSync(RESULTS_DIR, { recursive: true });
fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);

const failed = runs.filter((r) => r.status !== 'ok');
process.stderr.write(
  `[run-all] ${runs.length - failed.length}/${runs.length} ok${failed.length ? `; failed: ${failed.map((r) => `${r.file} (${r.status})`).join(', ')}` : ''}; wrote ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'latest.json'))}\n`,
);
process.exitCode = failed.length ? 1 : 0;
