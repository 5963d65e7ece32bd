/**
 * End-to-end latency of POST /v1/predict/{modelId} over real HTTP on loopback, next to the bare
 * onnxruntime session.run of the same model in the same process, for every fixture model, at its
 * trained size and with a 640x480 upload (fixed-shape models letterbox it down: that case measures
 * the cost of a bigger image). Throughput at concurrency 1, 2 and 8. The figure to drive down is
 * our overhead: target p50(e2e) ≤ 1.2 × (bare run + decode).
 *
 * Prints ONE JSON line. Env: BENCH_REQUESTS (per concurrency level, default 120).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { InferenceEngine } from '../apps/server/src/modules/inference/index.js';
import { decodeImage } from '../apps/server/src/modules/inference/decode.js';
import { letterboxGeometry, letterboxImage, toChwFloat } from '../apps/server/src/modules/inference/preprocess.js';
import { benchServerEnv } from './support/in-process-hub.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../shared/fixtures/models');
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 120);
const log = (m: string) => process.stderr.write(`[predict-api] ${m}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! * 100) / 100;
};

async function main() {
  const { dataDir, env } = benchServerEnv('predict');
  const config = loadConfig(env);
  const app = await buildApp({ config, logger: false });
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

    const bigJpeg = await sharp(path.join(FIXTURES, 'test-images/test_0004.png')).resize(640, 480).jpeg({ quality: 90 }).toBuffer();
    const models = [
      { file: 'shapes3-detect.onnx', image: fs.readFileSync(path.join(FIXTURES, 'test-images/test_0003.png')), size: 160 },
      { file: 'shapes3-seg.onnx', image: fs.readFileSync(path.join(FIXTURES, 'test-images/test_0003.png')), size: 160 },
      {
        file: 'shapes3-cls.onnx',
        image: fs.readFileSync(path.join(FIXTURES, 'test-images-cls/red_square', fs.readdirSync(path.join(FIXTURES, 'test-images-cls/red_square'))[0]!)),
        size: 64,
      },
    ];
    const results = [];
    const engine = new InferenceEngine();
    for (const m of models) {
      const form = new FormData();
      form.set('model_name', m.file);
      form.set('file', new Blob([fs.readFileSync(path.join(FIXTURES, m.file))]), m.file);
      const up = await fetch(`${base}/v1/models/upload`, { method: 'POST', headers: { cookie }, body: form });
      const modelId = ((await up.json()) as { data: { id: string } }).data.id;
      const modelPath = path.join(FIXTURES, m.file);

      // Bare run and decode in this process: the floor our HTTP path is compared with.
      const desc = await engine.load(modelPath);
      const inputShape = desc.input.shape.map((d) => (typeof d === 'number' ? d : 1));
      const img = await decodeImage(m.image);
      const geo = letterboxGeometry(img.width, img.height, [inputShape[2]!, inputShape[3]!], { auto: false, stride: 32 });
      const tensor = toChwFloat(letterboxImage(img, geo));
      const bare: number[] = [];
      const decode: number[] = [];
      for (let i = 0; i < 60; i++) {
        let t = performance.now();
        await decodeImage(m.image);
        decode.push(performance.now() - t);
        t = performance.now();
        await engine.bareRun(modelPath, tensor, [1, 3, inputShape[2]!, inputShape[3]!]);
        bare.push(performance.now() - t);
      }
      for (const [label, image, imgsz] of [
        [`trained-${m.size}`, m.image, m.size],
        ['upload-640', bigJpeg, 640],
      ] as const) {
        const send = async () => {
          const f = new FormData();
          f.set('imgsz', String(imgsz));
          f.set('file', new Blob([image]), 'image');
          const t = performance.now();
          const res = await fetch(`${base}/v1/predict/${modelId}`, { method: 'POST', headers: { cookie }, body: f });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`predict answered ${res.status}`);
          return performance.now() - t;
        };
        for (let i = 0; i < 10; i++) await send();
        const byConcurrency = [];
        for (const c of [1, 2, 8]) {
          const lat: number[] = [];
          const start = performance.now();
          let next = 0;
          await Promise.all(
            Array.from({ length: c }, async () => {
              while (next < REQUESTS) {
                next += 1;
                lat.push(await send());
              }
            }),
          );
          const secs = (performance.now() - start) / 1000;
          byConcurrency.push({
            concurrency: c,
            requests: lat.length,
            throughputRps: Math.round((lat.length / secs) * 10) / 10,
            p50Ms: pct(lat, 50),
            p99Ms: pct(lat, 99),
          });
        }
        const floor = pct(bare, 50) + (label === 'upload-640' ? 0 : pct(decode, 50));
        const e2eP50 = byConcurrency[0]!.p50Ms;
        results.push({
          model: m.file,
          case: label,
          bareRunP50Ms: pct(bare, 50),
          decodeP50Ms: pct(decode, 50),
          e2eP50Ms: e2eP50,
          ratioToBarePlusDecode: Math.round((e2eP50 / floor) * 100) / 100,
          byConcurrency,
        });
        log(`${m.file} ${label}: e2e p50 ${e2eP50} ms vs bare ${pct(bare, 50)} + decode ${pct(decode, 50)}`);
      }
    }
    await engine.close();
    console.log(JSON.stringify({ bench: 'predict-api', target: 'e2e p50 <= 1.2 x (bare run + decode)', results }));
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
