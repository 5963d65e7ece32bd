/**
 * POST /v1/predict/{modelId} with full-size models on a 640×480 JPEG, each next to its bare floor measured in the
 * same process and the same rounds (image decode (sharp) + preprocess (letterbox or resize + crop, NCHW float) + a
 * bare onnxruntime `session.run` on its own session + output decode (NMS / top-5); no HTTP, no database) and to
 * the real ultralytics `predict` on the same image (ADR 0041).
 *
 * The floor is onnxruntime on the file as exported; the server loads detectors with their DFL rewritten
 * (onnx-rewrite.ts, ADR 0041), so beside it, alternating with it run by run, the same floor on the rewritten model is
 * printed (`floorRewrittenP50Ms`, and e2e against it in `info`). The targets stay against the file-as-exported floor.
 *
 * The models: bench/support/ultralytics-predict.py builds the seeded untrained YOLOv8n and YOLOv8n-cls with the
 * real client (../shared/clients, built into SIGHTLINE_CLIENTS or ./.clients), exports the detector to a static
 * (square 640) and a dynamic ONNX and the classifier to a static one, and times `YOLO(pt).predict` at 2 torch
 * threads and its defaults (the detector at the 480×640 rectangle). Where the client cannot run, a line says so,
 * the ultralytics ratios are skipped and the static files of ../shared/fixtures/perf stand in.
 *
 * Targets: detect (dynamic export, rectangular) e2e p50 ≤ 0.85× ultralytics predict and ≤ 1.1× the floor;
 * detect (static, square) ≤ 1.2× the floor; classify ≤ 1.0× ultralytics predict and ≤ 1.2× the floor;
 * detect requests/s at concurrency 4 (and 8) ≥ requests/s at concurrency 1.
 * Three rounds (floor, c=1, c=4, c=8 each), medians of the rounds. The server runs in this process on
 * the embedded default database, or on DATABASE_URL when set; the HTTP client in a thread of its own.
 * Prints ONE JSON line. Env: BENCH_REQUESTS (per level and round, default 40), BENCH_ROUNDS (3), BENCH_CASES (only the
 * cases whose name contains one of these comma-separated words, e.g. `classify`; default all).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { decodeImage } from '../apps/server/src/modules/inference/decode.js';
import { sessionOptions } from '../apps/server/src/modules/inference/inference.engine.js';
import { rewriteDfl } from '../apps/server/src/modules/inference/onnx-rewrite.js';
import { decodeDetections, topK } from '../apps/server/src/modules/inference/postprocess.js';
import { classifyGeometry, classifyToChw, letterboxGeometry, letterboxToChw } from '../apps/server/src/modules/inference/preprocess.js';
import { benchServerEnv } from './support/in-process-hub.js';

const PERF = path.resolve(import.meta.dirname, '../../shared/fixtures/perf');
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CASES = (process.env.BENCH_CASES ?? '').split(',').filter(Boolean);
const wanted = (c: { name: string }) => CASES.length === 0 || CASES.some((w) => c.name.includes(w));
const log = (m: string) => process.stderr.write(`[predict-yolov8n] ${m}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const median = (xs: number[]) => pct(xs, 50);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

interface Case {
  name: string;
  /** The ONNX file (absolute). */
  file: string;
  task: 'detect' | 'classify';
  size: number;
  /** Letterbox to the rectangle (dynamic exports) rather than the full square. */
  rect: boolean;
  /** The ratio of e2e p50 to the floor that must hold. */
  limit: number;
  /** ultralytics predict of the same network on the same image, and the ratio of e2e p50 to it that must hold. */
  peer?: { p50Ms: number; inputHw: number[]; limit?: number };
}

/** What bench/support/ultralytics-predict.py prints. */
interface Peer {
  version: string;
  files: { detectStatic: string; detectDynamic: string; classifyStatic: string };
  detect: { p50Ms: number; inputHw: number[]; threads: number };
  classify: { p50Ms: number; inputHw: number[]; threads: number };
}

/** The real client's side, or why it could not run. */
function runUltralytics(work: string, image: string, requests: number): Peer | string {
  const repo = path.resolve(import.meta.dirname, '..');
  const clients = process.env.SIGHTLINE_CLIENTS ?? path.join(repo, '.clients');
  const env = path.join(clients, 'legacy', 'env.sh');
  if (!fs.existsSync(env)) return `no ultralytics client at ${clients} (build it with ../shared/clients/setup.sh)`;
  const script = path.join(import.meta.dirname, 'support', 'ultralytics-predict.py');
  const run = spawnSync('bash', ['-c', `. "${env}" && "$PY" "${script}" "${work}" "${image}" ${requests}`], {
    encoding: 'utf8',
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = (run.stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (run.status !== 0 || !line)
    return `the ultralytics client failed (${run.status ?? run.signal}): ${(run.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`;
  return JSON.parse(line) as Peer;
}

function casesFor(peer: Peer | null): Case[] {
  if (!peer)
    return [
      { name: 'detect-640-static', file: path.join(PERF, 'yolov8n-untrained-static.onnx'), task: 'detect', size: 640, rect: false, limit: 1.2 },
      { name: 'classify-224', file: path.join(PERF, 'yolov8n-cls-untrained-static.onnx'), task: 'classify', size: 224, rect: false, limit: 1.2 },
    ];
  return [
    { name: 'detect-640-dynamic', file: peer.files.detectDynamic, task: 'detect', size: 640, rect: true, limit: 1.1, peer: { ...peer.detect, limit: 0.85 } },
    // The square a static export needs: its ratio to predict (which runs the rectangle) is printed, not held.
    { name: 'detect-640-static', file: peer.files.detectStatic, task: 'detect', size: 640, rect: false, limit: 1.2, peer: { ...peer.detect } },
    { name: 'classify-224', file: peer.files.classifyStatic, task: 'classify', size: 224, rect: false, limit: 1.2, peer: { ...peer.classify, limit: 1.0 } },
  ];
}

/** What http-client.worker.mjs takes and answers. */
interface ClientJob {
  url: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
  file: Uint8Array;
  fileName: string;
  requests: number;
  concurrency: number;
}
interface ClientResult {
  latenciesMs: number[];
  seconds: number;
  error?: string;
}
const client = new Worker(new URL('./http-client.worker.mjs', import.meta.url));
function clientRun(job: ClientJob): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    client.once('message', (r: ClientResult) => (r.error ? reject(new Error(r.error)) : resolve(r)));
    client.postMessage(job);
  });
}

async function main() {
  const { dataDir, env } = benchServerEnv('yolo');
  // The client runs before the server starts: it takes minutes, and a server left waiting that long would drop its keep-alive sockets.
  const raw = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#808080' } })
    .raw()
    .toBuffer();
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  const jpeg = await sharp(raw, { raw: { width: 160, height: 120, channels: 3 } })
    .resize(640, 480)
    .blur(1)
    .jpeg({ quality: 90 })
    .toBuffer();

  const imagePath = path.join(dataDir, 'bench.jpg');
  fs.writeFileSync(imagePath, jpeg);
  log('ultralytics: building, exporting and timing the seeded YOLOv8n and YOLOv8n-cls with the real client…');
  const ran = runUltralytics(path.join(dataDir, 'ultralytics'), imagePath, REQUESTS);
  const peer = typeof ran === 'string' ? null : ran;
  if (typeof ran === 'string') log(`ultralytics: skipped, ${ran}; its ratios are not measured and the static perf fixtures stand in`);
  else
    log(
      `ultralytics ${ran.version} predict p50 (torch threads ${ran.detect.threads}): detect ${round(ran.detect.p50Ms, 1)} ms at ${ran.detect.inputHw.join('×')}, classify ${round(ran.classify.p50Ms, 1)} ms`,
    );

  const app = await buildApp({ config: loadConfig(env), logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const signup = await fetch(`${base}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pass-1', username: 'bench', firstName: 'Bench' }),
    });
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    // Benchmarks must not hit the plan quota.
    const { users } = await import('../apps/server/src/platform/db/schema.js');
    await app.ctx.db.update(users).set({ plan: 'enterprise' });

    const results = [];
    for (const c of casesFor(peer).filter(wanted)) {
      const modelPath = c.file;
      const form = new FormData();
      form.set('model_name', c.name);
      form.set('file', new Blob([fs.readFileSync(modelPath)]), path.basename(c.file));
      const up = await fetch(`${base}/v1/models/upload`, { method: 'POST', headers: { cookie }, body: form });
      if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${await up.text()}`);
      const modelId = ((await up.json()) as { data: { id: string } }).data.id;

      // The floor: the same work with no server around it, on a session of its own with the engine's options.
      const session = await InferenceSession.create(modelPath, sessionOptions());
      // And on the model as the server loads it, with its DFL rewritten (none for the classifier).
      const rewritten = await rewriteDfl(modelPath);
      const rewrittenSession = rewritten ? await InferenceSession.create(rewritten.bytes, sessionOptions()) : null;
      const floorOnce = async (s: InferenceSession = session) => {
        const t = performance.now();
        const img = await decodeImage(jpeg);
        let input: Float32Array;
        let dims: number[];
        if (c.task === 'detect') {
          const geo = letterboxGeometry(img.width, img.height, [c.size, c.size], { auto: c.rect, stride: 32 });
          input = letterboxToChw(img, geo);
          dims = [1, 3, geo.output.height, geo.output.width];
        } else {
          const geo = classifyGeometry(img.width, img.height, [c.size, c.size]);
          input = classifyToChw(img, geo);
          dims = [1, 3, geo.crop.height, geo.crop.width];
        }
        const out = await s.run({ [s.inputNames[0]!]: new Tensor('float32', input, dims) });
        const head = out[s.outputNames[0]!] as Tensor;
        if (c.task === 'detect')
          decodeDetections(head.data as Float32Array, head.dims, {
            nc: head.dims[1]! - 4,
            extra: 0,
            end2end: false,
            conf: 0.25,
            iou: 0.45,
            maxDet: 300,
            agnostic: false,
          });
        else topK(Array.from(head.data as Float32Array), 5);
        return performance.now() - t;
      };
      // The client runs in its own thread (http-client.worker.ts): its multipart and fetch work is not the server's.
      const predict = (requests: number, concurrency: number) =>
        clientRun({
          url: `${base}/v1/predict/${modelId}`,
          headers: { cookie },
          fields: { imgsz: String(c.size) },
          file: jpeg,
          fileName: 'image.jpg',
          requests,
          concurrency,
        });
      for (let i = 0; i < 5; i++) {
        await floorOnce();
        if (rewrittenSession) await floorOnce(rewrittenSession);
      }
      await predict(5, 1);

      const rounds: Array<{ floorP50: number; floorRewrittenP50: number | null; byConcurrency: Record<number, { p50: number; p99: number; rps: number }> }> =
        [];
      for (let r = 0; r < ROUNDS; r++) {
        const floor: number[] = [];
        const floorRewritten: number[] = [];
        for (let i = 0; i < REQUESTS; i++) {
          floor.push(await floorOnce());
          if (rewrittenSession) floorRewritten.push(await floorOnce(rewrittenSession));
        }
        const byConcurrency: Record<number, { p50: number; p99: number; rps: number }> = {};
        for (const conc of [1, 4, 8]) {
          const { latenciesMs: lat, seconds } = await predict(REQUESTS, conc);
          byConcurrency[conc] = { p50: pct(lat, 50), p99: pct(lat, 99), rps: lat.length / seconds };
        }
        rounds.push({ floorP50: pct(floor, 50), floorRewrittenP50: rewrittenSession ? pct(floorRewritten, 50) : null, byConcurrency });
        const rw = rewrittenSession ? ` (rewritten ${round(pct(floorRewritten, 50), 1)} ms)` : '';
        log(
          `${c.name} round ${r + 1}: floor ${round(pct(floor, 50), 1)} ms${rw}, e2e p50 ${round(byConcurrency[1]!.p50, 1)} ms, req/s c1 ${round(byConcurrency[1]!.rps, 1)} c4 ${round(byConcurrency[4]!.rps, 1)} c8 ${round(byConcurrency[8]!.rps, 1)}`,
        );
      }
      await session.release();
      await rewrittenSession?.release();
      const floorP50 = median(rounds.map((r) => r.floorP50));
      const floorRewrittenP50 = rewrittenSession ? median(rounds.map((r) => r.floorRewrittenP50!)) : null;
      const level = (conc: number) => ({
        p50Ms: round(median(rounds.map((r) => r.byConcurrency[conc]!.p50)), 1),
        p99Ms: round(median(rounds.map((r) => r.byConcurrency[conc]!.p99)), 1),
        rps: round(median(rounds.map((r) => r.byConcurrency[conc]!.rps)), 1),
      });
      const c1 = level(1);
      const c4 = level(4);
      const c8 = level(8);
      const targets: Record<string, { ratio: number; limit: number; ok: boolean }> = {
        e2eVsFloorP50: { ratio: round(c1.p50Ms / floorP50), limit: c.limit, ok: c1.p50Ms / floorP50 <= c.limit },
      };
      const info: Record<string, number> = {};
      if (floorRewrittenP50 !== null) info.e2eVsRewrittenFloorP50 = round(c1.p50Ms / floorRewrittenP50);
      if (c.peer?.limit !== undefined)
        targets.e2eVsUltralyticsP50 = { ratio: round(c1.p50Ms / c.peer.p50Ms), limit: c.peer.limit, ok: c1.p50Ms / c.peer.p50Ms <= c.peer.limit };
      else if (c.peer) info.e2eVsUltralyticsP50 = round(c1.p50Ms / c.peer.p50Ms);
      if (c.peer) log(`${c.name}: e2e p50 ${c1.p50Ms} ms vs ultralytics predict ${round(c.peer.p50Ms, 1)} ms = ${round(c1.p50Ms / c.peer.p50Ms)}×`);
      if (c.task === 'detect') {
        targets.rpsC4VsC1 = { ratio: round(c4.rps / c1.rps), limit: 1, ok: c4.rps >= c1.rps };
        targets.rpsC8VsC1 = { ratio: round(c8.rps / c1.rps), limit: 1, ok: c8.rps >= c1.rps };
      }
      for (const [name, v] of Object.entries(targets))
        log(`${v.ok ? 'PASS' : 'FAIL'} ${c.name} ${name}: ${v.ratio}× (${name.startsWith('rps') ? '≥' : '≤'} ${v.limit}×)`);
      results.push({
        case: c.name,
        model: path.basename(c.file),
        floorP50Ms: round(floorP50, 1),
        floorRewrittenP50Ms: floorRewrittenP50 === null ? null : round(floorRewrittenP50, 1),
        ultralyticsP50Ms: c.peer ? round(c.peer.p50Ms, 1) : null,
        c1,
        c4,
        c8,
        targets,
        info,
      });
    }
    console.log(
      JSON.stringify({
        bench: 'predict-yolov8n',
        load: os.loadavg().map((x) => round(x)),
        database: process.env.DATABASE_URL ? 'postgres' : 'embedded',
        ultralytics: peer ? { version: peer.version, torchThreads: peer.detect.threads } : { skipped: ran },
        rounds: ROUNDS,
        requests: REQUESTS,
        results,
      }),
    );
  } finally {
    await client.terminate();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
