/**
 * Evaluation of a full-size model (../shared/fixtures/perf: YOLOv8n detect at 640) on a generated
 * dataset split of BENCH_EVAL_IMAGES 640×480 JPEGs (default 1,000), against its floor in the same
 * run: the same images, from memory, through decode (sharp) + val's letterbox + a bare onnxruntime
 * `session.run` on its own session + decode with val's NMS (conf 0.001, IoU 0.7, 300, multi-label),
 * one after another, no server, no database, no metrics.
 *
 * The evaluation is what the job does (ADR 0035): POST /v1/models/{id}/evaluations, then the job
 * reads every image out of the stored archive, runs the server's inference engine, scores with the
 * metrics engine and stores the result and the mistakes. Target (issue of evaluations): ≤ 1.3× the floor.
 * The server runs in this process on the embedded default database, or on DATABASE_URL when set.
 * Prints ONE JSON line. Env: BENCH_EVAL_IMAGES (1000; 50 makes a quick check).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { inProcessHub } from './support/in-process-hub.js';
import { decodeImage } from '../apps/server/src/modules/inference/decode.js';
import { sessionOptions } from '../apps/server/src/modules/inference/inference.engine.js';
import { readOnnxMetadata, parseUltralyticsMetadata } from '../apps/server/src/modules/inference/onnx-metadata.js';
import { decodeDetections } from '../apps/server/src/modules/inference/postprocess.js';
import { letterboxToChw, valLetterboxGeometry } from '../apps/server/src/modules/inference/preprocess.js';

const PERF = path.resolve(import.meta.dirname, '../../shared/fixtures/perf');
const MODEL = path.join(PERF, 'yolov8n-untrained-static.onnx');
const IMAGES = Number(process.env.BENCH_EVAL_IMAGES ?? 1000);
const LIMIT = 1.3;
const log = (m: string) => process.stderr.write(`[evaluation-yolov8n] ${m}\n`);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** A stored zip (no compression: JPEGs do not shrink), built in memory. */
function zipOf(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const n = Buffer.from(name);
    const crc = zlib.crc32(data) >>> 0;
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(data.length, 18);
    h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(n.length, 26);
    parts.push(h, n, data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(data.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(central);
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(entries.length, 8);
  e.writeUInt16LE(entries.length, 10);
  e.writeUInt32LE(cd.length, 12);
  e.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, e]);
}

async function main() {
  const meta = parseUltralyticsMetadata((await readOnnxMetadata(MODEL)).metadataProps);
  // 64 distinct 640×480 JPEGs (blurred upscaled noise), reused under different names, two labels each.
  const variants: Buffer[] = [];
  for (let i = 0; i < 64; i++) {
    const noise = crypto.randomBytes(160 * 120 * 3);
    const big = await sharp(noise, { raw: { width: 160, height: 120, channels: 3 } })
      .resize(640, 480)
      .raw()
      .toBuffer();
    variants.push(
      await sharp(big, { raw: { width: 640, height: 480, channels: 3 } })
        .blur(1)
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  }
  const images = Array.from({ length: IMAGES }, (_, i) => variants[i % variants.length]!);
  const yaml = `names: [${meta.names.map((n) => JSON.stringify(n)).join(', ')}]\ntrain: images/train\nval: images/val\n`;
  const entries: Array<{ name: string; data: Buffer }> = [{ name: 'bench/data.yaml', data: Buffer.from(yaml) }];
  entries.push({ name: 'bench/images/train/t.jpg', data: variants[0]! }, { name: 'bench/labels/train/t.txt', data: Buffer.from('0 0.5 0.5 0.2 0.3\n') });
  images.forEach((data, i) => {
    entries.push({ name: `bench/images/val/img_${String(i).padStart(5, '0')}.jpg`, data });
    entries.push({
      name: `bench/labels/val/img_${String(i).padStart(5, '0')}.txt`,
      data: Buffer.from(`${i % 3} 0.5 0.5 0.2 0.3\n${(i + 1) % 3} 0.3 0.3 0.1 0.1\n`),
    });
  });
  const zip = zipOf(entries);
  log(`dataset: ${IMAGES} images, ${(zip.length / 1024 ** 2).toFixed(1)} MB`);

  const { app, call, signUp, close } = await inProcessHub('eval');
  try {
    const { cookie, uid } = await signUp();
    const { users } = await import('../apps/server/src/platform/db/schema.js');
    await app.ctx.db.update(users).set({ plan: 'enterprise' });

    const form = new FormData();
    form.set('model_name', 'yolov8n');
    form.set('file', new Blob([fs.readFileSync(MODEL)]), 'yolov8n.onnx');
    const formReq = new Request('http://x', { method: 'POST', body: form });
    const up = await call(
      'POST',
      '/v1/models/upload',
      { cookie, 'content-type': formReq.headers.get('content-type')! },
      Buffer.from(await formReq.arrayBuffer()),
    );
    const modelId = up.json().data.id as string;

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
    for (let offset = 0; offset < zip.length;) {
      const chunk = zip.subarray(offset, offset + 16 * 1024 * 1024);
      await call(
        'PATCH',
        tusUrl,
        { cookie, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        chunk,
      );
      offset += chunk.length;
    }
    await call('POST', `/v1/datasets/${datasetId}/process`, { cookie });
    await app.ctx.jobs.drain();
    const status = (await call('GET', `/v1/datasets/${datasetId}`, { cookie })).json().data.status;
    if (status !== 'Ready') throw new Error(`dataset is ${status}`);
    log('dataset ready; warming up');

    // The floor, on a session of its own with the engine's options.
    const session = await InferenceSession.create(MODEL, sessionOptions());
    const [h, w] = meta.imgsz;
    const floorOnce = async (jpeg: Buffer) => {
      const img = await decodeImage(jpeg);
      const geo = valLetterboxGeometry(img.width, img.height, [h!, w!]);
      const out = await session.run({ [session.inputNames[0]!]: new Tensor('float32', letterboxToChw(img, geo), [1, 3, geo.output.height, geo.output.width]) });
      const head = out[session.outputNames[0]!] as Tensor;
      return decodeDetections(head.data as Float32Array, head.dims, {
        nc: head.dims[1]! - 4,
        extra: 0,
        end2end: false,
        conf: 0.001,
        iou: 0.7,
        maxDet: 300,
        agnostic: false,
        multiLabel: true,
      }).length;
    };
    for (let i = 0; i < 5; i++) await floorOnce(images[i]!);

    let t = performance.now();
    let boxes = 0;
    for (const jpeg of images) boxes += await floorOnce(jpeg);
    const floorS = (performance.now() - t) / 1000;
    await session.release();
    log(`floor: ${round(floorS, 1)} s (${round((1000 * floorS) / IMAGES, 1)} ms/image, ${round(boxes / IMAGES, 1)} boxes/image)`);

    t = performance.now();
    const start = await call('POST', `/v1/models/${modelId}/evaluations`, { cookie }, { datasetId, split: 'val' });
    const evaluationId = start.json().data.id as string;
    await app.ctx.jobs.drain();
    const evalS = (performance.now() - t) / 1000;
    const done = (await call('GET', `/v1/evaluations/${evaluationId}`, { cookie })).json().data;
    if (done.status !== 'completed') throw new Error(`evaluation ended ${done.status}: ${done.error}`);
    log(`evaluation: ${round(evalS, 1)} s (${round((1000 * evalS) / IMAGES, 1)} ms/image), mAP50 ${done.result.box.mAP50}`);

    const ratio = evalS / floorS;
    log(`${ratio <= LIMIT ? 'PASS' : 'FAIL'} evaluation vs bare session.run + NMS: ${round(ratio)}× (≤ ${LIMIT}×)`);
    console.log(
      JSON.stringify({
        bench: 'evaluation-yolov8n',
        load: os.loadavg().map((x) => round(x)),
        database: process.env.DATABASE_URL ? 'postgres' : 'embedded',
        images: IMAGES,
        floorS: round(floorS, 2),
        evaluationS: round(evalS, 2),
        targets: { evaluationVsFloor: { ratio: round(ratio), limit: LIMIT, ok: ratio <= LIMIT } },
      }),
    );
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
