/**
 * 200 simulated users for 60 s against the server as `npm start` runs it (`tsx apps/server/src/main.ts`
 * in its own process, embedded default database unless DATABASE_URL is set), with mixed reads and
 * writes: each user, with 0.5-1.5 s of think time between requests, reads its profile, lists its
 * datasets and projects, creates a project, renames it, reads it back. Also the idle RSS of that
 * server (and of any database processes it started) before the load.
 *
 * Targets: 0 errors, p99 ≤ 500 ms; idle memory ≤ 250 MB (PSS of the server and the database
 * processes it started; the server process's own RSS and the plain RSS sum are printed too).
 * Prints ONE JSON line. Env: BENCH_USERS (200), BENCH_LOAD_S (60).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { treeMemoryMb } from './support/process-memory.js';

const USERS = Number(process.env.BENCH_USERS ?? 200);
const LOAD_S = Number(process.env.BENCH_LOAD_S ?? 60);
const root = path.resolve(import.meta.dirname, '..');
const log = (m: string) => process.stderr.write(`[load-200-users] ${m}\n`);
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : 0;
};

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-load-'));
  let server: ReturnType<typeof spawn> | null = null;
  try {
    const port = 3800 + Math.floor(Math.random() * 400);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    };
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = `http://127.0.0.1:${port}`;
    const started = performance.now();
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/alive`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 240) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
    const startS = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 5000));
    const idle = {
      ...treeMemoryMb(server.pid!),
      serverRss: Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024),
    };
    log(
      `started in ${round(startS)} s; idle: server process RSS ${idle.serverRss} MB; with its database processes RSS ${idle.rss} MB, PSS ${idle.pss} MB (${idle.processes} processes)`,
    );

    log(`signing up ${USERS} users…`);
    const cookies: string[] = [];
    let n = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (n < USERS) {
          const i = n++;
          const res = await fetch(`${base}/v1/auth/signup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: `u${i}@example.com`, password: 'bench-pass-1', username: `load_${i}`, firstName: 'Load' }),
          });
          if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
          cookies.push(
            res.headers
              .getSetCookie()
              .find((c) => c.startsWith('sl_session='))!
              .split(';')[0]!,
          );
        }
      }),
    );

    const latencies: number[] = [];
    const errors: string[] = [];
    const byKind = new Map<string, number[]>();
    const deadline = performance.now() + LOAD_S * 1000;
    const call = async (kind: string, cookie: string, method: string, url: string, body?: unknown) => {
      const t = performance.now();
      try {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        const ms = performance.now() - t;
        latencies.push(ms);
        (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(ms);
        if (res.status >= 400) errors.push(`${kind} ${res.status} ${text.slice(0, 120)}`);
        return res.status < 400 ? (JSON.parse(text) as { data: { id?: string } }) : null;
      } catch (err) {
        errors.push(`${kind} ${(err as Error).message}`);
        return null;
      }
    };
    const think = () => new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
    log(`${USERS} users for ${LOAD_S} s…`);
    await Promise.all(
      cookies.map(async (cookie, u) => {
        await new Promise((r) => setTimeout(r, Math.random() * 1000));
        let step = 0;
        let projectId: string | null = null;
        while (performance.now() < deadline) {
          switch (step++ % 6) {
            case 0:
              await call('users/me', cookie, 'GET', '/v1/users/me');
              break;
            case 1:
              await call('datasets', cookie, 'GET', '/v1/datasets');
              break;
            case 2:
              projectId = (await call('create project', cookie, 'POST', '/v1/projects', { meta: { name: `p${u}-${step}` } }))?.data.id ?? null;
              break;
            case 3:
              if (projectId) await call('rename project', cookie, 'PATCH', `/v1/projects/${projectId}`, { meta: { name: `q${u}-${step}` } });
              break;
            case 4:
              if (projectId) await call('read project', cookie, 'GET', `/v1/projects/${projectId}`);
              break;
            default:
              await call('projects', cookie, 'GET', '/v1/projects');
          }
          await think();
        }
      }),
    );
    const p99 = pct(latencies, 99);
    const targets = {
      errors: { value: errors.length, limit: 0, ok: errors.length === 0 },
      p99Ms: { value: round(p99), limit: 500, ok: p99 <= 500 },
      // The server and the database processes it started, shared pages counted once (PSS); plain RSS summed
      // over processes would count PostgreSQL's shared memory once per process.
      idleMemoryMB: { value: idle.pss, limit: 250, ok: idle.pss <= 250 },
    };
    for (const [name, v] of Object.entries(targets)) log(`${v.ok ? 'PASS' : 'FAIL'} ${name}: ${v.value} (limit ${v.limit})`);
    if (errors.length) log(`first errors: ${errors.slice(0, 5).join(' | ')}`);
    console.log(
      JSON.stringify({
        bench: 'load-200-users',
        load: os.loadavg().map((x) => round(x, 2)),
        database: process.env.DATABASE_URL ? 'postgres' : 'embedded default',
        users: USERS,
        seconds: LOAD_S,
        startS: round(startS, 2),
        idleMemoryMB: idle,
        requests: latencies.length,
        rps: round(latencies.length / LOAD_S),
        p50Ms: round(pct(latencies, 50)),
        p99Ms: round(p99),
        maxMs: round(Math.max(0, ...latencies)),
        byKind: Object.fromEntries([...byKind].map(([k, v]) => [k, { n: v.length, p50Ms: round(pct(v, 50)), p99Ms: round(pct(v, 99)) }])),
        errors: errors.length,
        targets,
      }),
    );
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
