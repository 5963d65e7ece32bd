/**
 * Dataset processing memory that does not grow with the number of images (ADR 0042).
 * Zips of 2,000 and 32,000 small JPEG + label pairs (YOLO layout) are processed by the server's
 * processArchive in a fresh child process each, with an onImage that keeps rows in batches of 200 as
 * the job does (then drops them, as the job's insert does); the child reports its peak RSS
 * (VmHWM) minus its RSS just before processing. Target: growth(32,000) − growth(2,000) ≤ 20 MB.
 * Prints ONE JSON line with the difference and the ratio to the 20 MB limit. Each size runs twice;
 * the lower growth counts (a GC that happens to run late is not the code's). Env: BENCH_SIZES.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processArchive } from '../apps/server/src/modules/datasets/processing/process-archive.js';
import { buildZip, makeImage, type ZipEntrySpec } from '../apps/server/src/modules/datasets/processing/test-archives.js';

const SIZES = (process.env.BENCH_SIZES ?? '2000,32000').split(',').map(Number);
const LIMIT_MB = 20;
const log = (m: string) => process.stderr.write(`[processing-memory] ${m}\n`);
const statusMb = (field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

async function child(zip: string) {
  global.gc?.();
  const before = statusMb('VmRSS');
  let pending: unknown[] = [];
  const result = await processArchive({
    archivePath: zip,
    task: 'detect',
    concurrency: 2,
    onImage: (img) => {
      pending.push({ split: img.split, name: img.name, width: img.width, height: img.height, labels: img.labels, source: img.source });
      if (pending.length >= 200) pending = [];
    },
  });
  if (!result.ok) throw new Error(`processing failed: ${JSON.stringify(result.report.errors.slice(0, 3))}`);
  process.stdout.write(JSON.stringify({ images: result.images, growthMb: statusMb('VmHWM') - before }) + '\n');
}

async function makeZip(dir: string, n: number) {
  const jpeg = await makeImage('jpeg', 64, 48);
  const entries: ZipEntrySpec[] = [{ name: 'data.yaml', data: 'train: images/train\nval: images/val\nnames: [red, green]\n' }];
  for (let i = 0; i < n; i++) {
    const split = i % 10 === 0 ? 'val' : 'train';
    entries.push({ name: `images/${split}/img${i}.jpg`, data: jpeg, method: 'store' });
    entries.push({ name: `labels/${split}/img${i}.txt`, data: `${i % 2} 0.5 0.5 0.25 0.25\n`, method: 'store' });
  }
  const file = path.join(dir, `d${n}.zip`);
  fs.writeFileSync(file, buildZip(entries));
  return file;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-procmem-'));
  try {
    const growth: Record<number, number> = {};
    for (const n of SIZES) {
      const zip = await makeZip(dir, n);
      const runs: number[] = [];
      for (let r = 0; r < 2; r++) {
        const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--child', zip], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const res = JSON.parse(out.trim().split('\n').at(-1)!) as { images: number; growthMb: number };
        if (res.images !== n) throw new Error(`${res.images} of ${n} images processed`);
        runs.push(res.growthMb);
      }
      growth[n] = Math.round(Math.min(...runs) * 10) / 10;
      log(`${n} images: peak RSS growth ${growth[n]} MB (runs: ${runs.map((x) => x.toFixed(1)).join(', ')})`);
      fs.rmSync(zip);
    }
    const [small, large] = [SIZES[0]!, SIZES.at(-1)!];
    const diff = Math.round((growth[large]! - growth[small]!) * 10) / 10;
    console.log(
      JSON.stringify({
        bench: 'processing-memory',
        growthMb: growth,
        diffMb: diff,
        ratioToLimit: Math.round((diff / LIMIT_MB) * 100) / 100,
        target: `peak RSS growth ${large} − ${small} images ≤ ${LIMIT_MB} MB`,
        pass: diff <= LIMIT_MB,
      }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3]!).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
