/**
 * Dataset versions (ADR 0037, 0038): add 10 new 640×480 JPEGs (with labels) to a dataset of
 * BENCH_VERSIONS_IMAGES images (default 5,000) through POST /v1/datasets/{id}/images, then save a
 * version (POST /v1/datasets/{id}/versions). The same on a 50-image dataset, in the same run.
 *
 * Printed against two references measured in the same run:
 *   - the floor: reading the 10 images' bytes from disk (the files the user adds; page cache, as the
 *     server reads them) — target ≤ 20×;
 *   - the same edit on the 50-image dataset — the cost must not grow with the dataset (≈ 1×): a
 *     version is the dataset's edit sequence, the add writes 10 blobs and 10 rows, nothing is copied.
 * Medians of BENCH_VERSIONS_ROUNDS rounds (default 5), each with 10 images no other round used.
 * The server runs in this process (app.inject: no sockets), on the embedded default database or on
 * DATABASE_URL when set. Prints ONE JSON line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { inProcessHub } from './support/in-process-hub.js';
import { buildZip, makeImage } from '../apps/server/src/modules/datasets/processing/test-archives.js';
import { multipart } from '../apps/server/test/support/harness.js';

const BIG = Number(process.env.BENCH_VERSIONS_IMAGES ?? 5000);
const SMALL = 50;
const ROUNDS = Number(process.env.BENCH_VERSIONS_ROUNDS ?? 5);
const LIMIT = 20;
const log = (m: string) => process.stderr.write(`[dataset-versions] ${m}\n`);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A detect archive of `count` small PNGs, one label each, 1 in 10 in val. */
async function archiveOf(count: number) {
  const png = await makeImage('png', 16, 12);
  const entries: Array<{ name: string; data: Buffer | string }> = [{ name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' }];
  for (let i = 0; i < count; i++) {
    const split = i % 10 === 0 ? 'val' : 'train';
    const n = String(i).padStart(6, '0');
    entries.push({ name: `images/${split}/img_${n}.png`, data: png }, { name: `labels/${split}/img_${n}.txt`, data: `${i % 2} 0.5 0.5 0.2 0.2\n` });
  }
  return buildZip(entries);
}

/** Ten 640×480 JPEGs of noise (distinct bytes each time) and their labels, written to `dir`. */
async function tenImages(dir: string, seed: number) {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < 10; i++) {
    const raw = Buffer.alloc(640 * 480 * 3);
    let x = (seed * 7919 + i * 104729) >>> 0 || 1;
    for (let p = 0; p < raw.length; p++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      raw[p] = x & 0xff;
    }
    const file = path.join(dir, `add_${seed}_${i}.jpg`);
    fs.writeFileSync(
      file,
      await sharp(raw, { raw: { width: 640, height: 480, channels: 3 } })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
    fs.writeFileSync(file.replace(/\.jpg$/, '.txt'), `${i % 2} 0.5 0.5 0.3 0.3\n`);
    files.push(file);
  }
  return files;
}

async function main() {
  const { app, dataDir, call, signUp, close } = await inProcessHub('versions');
  try {
    const { cookie, uid } = await signUp();
    const b64 = (s: string) => Buffer.from(s).toString('base64');

    const readyDataset = async (name: string, count: number) => {
      const zip = await archiveOf(count);
      const id = (await call('POST', '/v1/datasets', { cookie }, { meta: { name }, task: 'detect' })).json().data.id as string;
      const token = (await call('POST', '/v1/uploads/token', { cookie }, { path: `users/${uid}/datasets/${id}/${name}.zip`, bytes: zip.length })).json().data
        .token as string;
      const created = await call('POST', '/v1/uploads/tus', {
        cookie,
        'tus-resumable': '1.0.0',
        'upload-length': String(zip.length),
        'upload-metadata': `token ${b64(token)},filename ${b64(`${name}.zip`)}`,
      });
      const tusUrl = new URL(String(created.headers.location), 'http://x').pathname;
      await call('PATCH', tusUrl, { cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, zip);
      await call('POST', `/v1/datasets/${id}/process`, { cookie });
      await app.ctx.jobs.drain();
      const d = (await call('GET', `/v1/datasets/${id}`, { cookie })).json().data as { status: string };
      if (d.status !== 'Ready') throw new Error(`${name} is ${d.status}`);
      log(`${name}: ${count} images Ready`);
      return id;
    };

    const big = await readyDataset('big', BIG);
    const small = await readyDataset('small', SMALL);
    const work = path.join(dataDir, 'adds');
    const floor: number[] = [];
    const edit: Record<'big' | 'small', number[]> = { big: [], small: [] };
    let seed = 1;
    for (let r = 0; r < ROUNDS; r++) {
      for (const [which, id] of [
        ['small', small],
        ['big', big],
      ] as const) {
        const files = await tenImages(path.join(work, `${which}-${r}`), seed++);
        // The floor: the 10 images' bytes read from disk.
        let t0 = performance.now();
        const bytes = files.map((f) => fs.readFileSync(f));
        floor.push(performance.now() - t0);
        const entries = files.flatMap((f, i) => [
          { name: path.basename(f), data: bytes[i]! },
          { name: path.basename(f).replace(/\.jpg$/, '.txt'), data: fs.readFileSync(f.replace(/\.jpg$/, '.txt')) },
        ]);
        const mp = multipart({ split: 'train' }, { field: 'files', filename: 'ten.zip', content: buildZip(entries), contentType: 'application/zip' });
        t0 = performance.now();
        const added = (await call('POST', `/v1/datasets/${id}/images`, { cookie, ...mp.headers }, mp.payload)).json().data as { added: number };
        await call('POST', `/v1/datasets/${id}/versions`, { cookie }, { note: `round ${r}` });
        edit[which].push(performance.now() - t0);
        if (added.added !== 10) throw new Error(`${which}: added ${added.added} of 10`);
      }
      log(
        `round ${r + 1}/${ROUNDS}: ${BIG}-image edit ${round(edit.big.at(-1)!)} ms, 50-image ${round(edit.small.at(-1)!)} ms, floor ${round(floor.at(-1)!, 3)} ms`,
      );
    }
    const f = median(floor);
    const b = median(edit.big);
    const s = median(edit.small);
    const result = {
      bench: 'dataset-versions',
      images: BIG,
      rounds: ROUNDS,
      database: process.env.DATABASE_URL ? 'postgres' : 'embedded',
      floorReadTenMs: round(f, 3),
      addTenAndSaveMs: { [BIG]: round(b), [SMALL]: round(s) },
      ratioToFloor: round(b / f, 1),
      limitToFloor: LIMIT,
      meetsFloorTarget: b / f <= LIMIT,
      ratioToSmallDataset: round(b / s),
    };
    log(
      `add 10 + save version on ${BIG} images: ${round(b)} ms = ${round(b / f, 1)}× reading the 10 images (${round(f, 3)} ms; target ≤ ${LIMIT}×), ${round(b / s)}× the same on ${SMALL} images`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
