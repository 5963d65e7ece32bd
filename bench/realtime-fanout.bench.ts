/**
 * Live updates whose cost does not grow with the audience (ADR 0042). The server as
 * `npm start` runs it (its own process, embedded database unless DATABASE_URL is set); 2 training
 * runs (public models) each watched by W sockets, while 2 tabs a second open and close elsewhere
 * (each publishes `presence.updated`, which must not re-check anyone). The owner posts metrics (the
 * legacy HUB client's `POST /v1/models/{id}`) in turn to both runs; every watcher hears `model.metrics`.
 *
 * Measured twice in the same run, with W = 10 and W = 1,000: delivery latency (POST sent → each
 * watcher's message, all watchers) and the POST's own latency. Targets: with 1,000 watchers delivery
 * p99 ≤ 50 ms, and the POST p50 within 1.5× of the 10-watcher run. Prints ONE JSON line with both
 * ratios. Env: BENCH_WATCHERS (1000), BENCH_POSTS (60 per phase), BENCH_WATCHER_USERS (20).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1000);
const POSTS = Number(process.env.BENCH_POSTS ?? 60);
const WATCHER_USERS = Number(process.env.BENCH_WATCHER_USERS ?? 20);
const root = path.resolve(import.meta.dirname, '..');
const log = (m: string) => process.stderr.write(`[realtime-fanout] ${m}\n`);
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-realtime-'));
  let server: ReturnType<typeof spawn> | null = null;
  const sockets: WebSocket[] = [];
  try {
    const port = 4200 + Math.floor(Math.random() * 400);
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
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
      if (i > 1200) throw new Error('server did not start within 300 s');
      await sleep(250);
    }
    const signup = async (name: string) => {
      const res = await fetch(`${base}/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${name}@example.com`, password: 'bench-pass-1', username: name, firstName: 'Bench' }),
      });
      if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
      return res.headers
        .getSetCookie()
        .find((c) => c.startsWith('sl_session='))!
        .split(';')[0]!;
    };
    const json = async (cookie: string, method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { data: Record<string, unknown> }).data;
    };
    log(`signing up the owner, a passer-by and ${WATCHER_USERS} watchers…`);
    const owner = await signup('owner');
    const passer = await signup('passer');
    const watcherCookies: string[] = [];
    for (let i = 0; i < WATCHER_USERS; i++) watcherCookies.push(await signup(`watcher_${i}`));
    const legacyKey = (await json(owner, 'POST', '/v1/api-keys', { name: 'trainer' })).legacyKey as string;
    const models: string[] = [];
    for (const name of ['run-a', 'run-b']) models.push((await json(owner, 'POST', '/v1/models', { meta: { name, privacy: 'public' } })).id as string);

    /** Sent-at of each POST's epoch, per model; each watcher's delivery latency is measured against it. */
    const sentAt = new Map<string, number>();
    let deliveries: number[] = [];
    let heard = 0;
    const open = (cookie: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/realtime`, { headers: { cookie } });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    const watch = async (cookie: string, model: string) => {
      const ws = await open(cookie);
      sockets.push(ws);
      await new Promise<void>((resolve) => {
        ws.on('message', (raw: Buffer) => {
          const m = JSON.parse(raw.toString('utf8')) as { type: string; topic?: string; event?: string; data?: { epochs?: number[] } };
          if (m.type === 'subscribed') return resolve();
          if (m.type === 'event' && m.event === 'model.metrics') {
            const t = sentAt.get(`${m.topic}|${m.data?.epochs?.[0] ?? -1}`);
            if (t !== undefined) deliveries.push(performance.now() - t);
            heard++;
          }
        });
        ws.send(JSON.stringify({ type: 'subscribe', topic: `model:${model}` }));
      });
    };

    const phase = async (perRun: number) => {
      // Watchers already open stay: add up to perRun per run.
      const have = sockets.length / models.length;
      for (let i = have; i < perRun; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, perRun - i) }, (_, j) =>
            Promise.all(models.map((m, k) => watch(watcherCookies[(i + j + k) % watcherCookies.length]!, m))),
          ),
        );
      }
      log(`${perRun} watchers per run (${sockets.length} sockets); churn of 2 tabs a second and ${POSTS} metric POSTs…`);
      let churning = true;
      const churn = (async () => {
        while (churning) {
          const tab = await open(passer);
          await sleep(250);
          tab.close();
          await sleep(250);
        }
      })();
      deliveries = [];
      heard = 0;
      const posts: number[] = [];
      const epochs = new Map(models.map((m) => [m, 0]));
      await sleep(1000);
      for (let i = 0; i < POSTS; i++) {
        const model = models[i % models.length]!;
        const epoch = epochs.get(model)!;
        epochs.set(model, epoch + 1);
        const metrics = { [epoch]: JSON.stringify({ 'train/box_loss': 1 / (epoch + 1), 'metrics/mAP50(B)': 0.01 * epoch }) };
        // The event names the epochs of its POST: the epoch tells which POST it came from.
        sentAt.set(`model:${model}|${epoch}`, performance.now());
        const t = performance.now();
        const res = await fetch(`${base}/v1/models/${model}`, {
          method: 'POST',
          headers: { 'x-api-key': legacyKey, 'content-type': 'application/json' },
          body: JSON.stringify({ metrics, type: 'metrics' }),
        });
        posts.push(performance.now() - t);
        if (!res.ok) throw new Error(`metrics POST answered ${res.status}: ${await res.text()}`);
        await sleep(100);
      }
      await sleep(2000);
      churning = false;
      await churn;
      const expected = Math.min(POSTS, 100) * perRun;
      return {
        watchersPerRun: perRun,
        sockets: sockets.length,
        delivered: heard,
        expected,
        deliveryP50Ms: round(pct(deliveries, 50)),
        deliveryP99Ms: round(pct(deliveries, 99)),
        postP50Ms: round(pct(posts, 50)),
        postP99Ms: round(pct(posts, 99)),
      };
    };

    const small = await phase(10);
    log(JSON.stringify(small));
    const large = await phase(WATCHERS);
    log(JSON.stringify(large));
    const postRatio = small.postP50Ms > 0 ? round(large.postP50Ms / small.postP50Ms, 2) : null;
    console.log(
      JSON.stringify({
        bench: 'realtime-fanout',
        small,
        large,
        ratios: { deliveryP99VsTarget50Ms: round(large.deliveryP99Ms / 50, 2), postP50LargeVsSmall: postRatio },
        targets: {
          deliveryP99Le50Ms: large.deliveryP99Ms <= 50,
          postP50Within1_5x: postRatio !== null && postRatio <= 1.5,
          noneLost: small.delivered === small.expected && large.delivered === large.expected,
        },
      }),
    );
  } finally {
    for (const ws of sockets) ws.terminate();
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
