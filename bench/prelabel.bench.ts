/**
 * Pre-labelling (ADR 0039) of a BENCH_PRELABEL_IMAGES-image split (default 200, the shapes3 fixture's
 * images again under new names) with the fixture detect model, against the bare predict cost in the
 * same run: the same images, from memory, through a fresh InferenceEngine's `predict` at the same
 * settings (what /v1/predict runs, without HTTP, archive reads, the database or suggestions), one
 * after another.
 *
 * The job is what a user starts: POST /v1/datasets/{id}/prelabel, then the job reads every image out
 * of the stored archive, runs its engine, maps classes, writes suggestions in batches with progress.
 * Target: ≤ 1.3× the bare predict cost. The server runs in this process on the embedded default
 * database, or on DATABASE_URL when set. Prints ONE JSON line with images per second of both.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { inProcessHub } from './support/in-process-hub.js';
import { InferenceEngine } from '../apps/server/src/modules/inference/index.js';
import { shapesSplitZip } from '../apps/server/test/support/labelling.js';

const MODEL = path.resolve(import.meta.dirname, '../../shared/fixtures/models/shapes3-detect.onnx');
const IMAGES = Number(process.env.BENCH_PRELABEL_IMAGES ?? 200);
const LIMIT = 1.3;
const log = (m: string) => process.stderr.write(`[prelabel] ${m}\n`);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function main() {
  const { zip, bytes } = await shapesSplitZip(IMAGES, 10);
  const { app, call, signUp, close } = await inProcessHub('prelabel');
  const floorEngine = new InferenceEngine({ maxCacheBytes: 64 * 1024 * 1024 });
  try {
    const { cookie, uid } = await signUp();
    const form = new FormData();
    form.set('model_name', 'shapes3-detect');
    form.set('file', new Blob([fs.readFileSync(MODEL)]), 'shapes3-detect.onnx');
    const formReq = new Request('http://x', { method: 'POST', body: form });
    const up = await call(
      'POST',
      '/v1/models/upload',
      { cookie, 'content-type': formReq.headers.get('content-type')! },
      Buffer.from(await formReq.arrayBuffer()),
    );
    const modelId = up.json().data.id as string;
    await app.ctx.jobs.drain();

    const datasetId = (await call('POST', '/v1/datasets', { cookie }, { meta: { name: 'bench' }, task: 'detect' })).json().data.id as string;
    const token = (await call('POST', '/v1/uploads/token', { cookie }, { path: `users/${uid}/datasets/${datasetId}/bench.zip`, bytes: zip.length })).json().data
      .token as string;
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const created = await call('POST', '/v1/uploads/tus', {
      cookie,
      'tus-resumable': '1.0.0',
      'upload-length': String(zip.length),
      'upload-metadata': `token ${b64(token)},filename ${b64('bench.zip')}`,
    });
    const tusUrl = new URL(String(created.headers.location), 'http://x').pathname;
    await call('PATCH', tusUrl, { cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, zip);
    await call('POST', `/v1/datasets/${datasetId}/process`, { cookie });
    await app.ctx.jobs.drain();
    const status = (await call('GET', `/v1/datasets/${datasetId}`, { cookie })).json().data.status;
    if (status !== 'Ready') throw new Error(`dataset is ${status}`);
    log(`dataset ready: ${IMAGES} images; warming up`);

    // Warm both: one pre-labelling of one image, one bare predict.
    const first = (await call('GET', `/v1/datasets/${datasetId}/images?split=train&limit=1`, { cookie })).json().data.results[0].id as string;
    await call('POST', `/v1/datasets/${datasetId}/prelabel`, { cookie }, { modelId, imageIds: [first] });
    await app.ctx.jobs.drain();
    const images = [...bytes.values()];
    await floorEngine.predict(MODEL, images[0]!, { imgsz: 640, iou: 0.45, conf: 0.25 });

    let t = performance.now();
    for (const img of images) await floorEngine.predict(MODEL, img, { imgsz: 640, iou: 0.45, conf: 0.25 });
    const floorS = (performance.now() - t) / 1000;
    log(`bare predict: ${round(floorS, 2)} s (${round(IMAGES / floorS, 1)} images/s)`);

    t = performance.now();
    const start = await call('POST', `/v1/datasets/${datasetId}/prelabel`, { cookie }, { modelId, split: 'train', conf: 0.25 });
    await app.ctx.jobs.drain();
    const jobS = (performance.now() - t) / 1000;
    const job = (await call('GET', `/v1/datasets/${datasetId}/prelabel/${start.json().data.id}`, { cookie })).json().data;
    if (job.status !== 'completed' || job.done !== IMAGES) throw new Error(`pre-labelling ended ${job.status} at ${job.done}/${job.total}: ${job.error}`);
    log(`pre-labelling: ${round(jobS, 2)} s (${round(IMAGES / jobS, 1)} images/s), ${job.boxes} suggested rows on ${job.suggested} images`);

    const ratio = jobS / floorS;
    log(`${ratio <= LIMIT ? 'PASS' : 'FAIL'} pre-labelling vs bare predict: ${round(ratio)}× (≤ ${LIMIT}×)`);
    console.log(
      JSON.stringify({
        bench: 'prelabel',
        load: os.loadavg().map((x) => round(x)),
        database: process.env.DATABASE_URL ? 'postgres' : 'embedded',
        images: IMAGES,
        barePredictImagesPerS: round(IMAGES / floorS, 1),
        prelabelImagesPerS: round(IMAGES / jobS, 1),
        targets: { prelabelVsBarePredict: { ratio: round(ratio), limit: LIMIT, ok: ratio <= LIMIT } },
      }),
    );
  } finally {
    await floorEngine.close();
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
