/**
 * Dataset processing throughput on a generated detection dataset of ≥ 20,000 images / ≥ 1 GB:
 * resumable upload over HTTP (tus), then POST /v1/datasets/{id}/process until Ready. Reports MB/s
 * and images/s next to `unzip -t` on the same file (the disk + inflate bound), and the server's
 * peak RSS (VmHWM of the server process) during upload and processing.
 *
 * The server runs as a child process (`tsx apps/server/src/main.ts`) so its memory is measured
 * alone. Env: BENCH_IMAGES (20000), BENCH_IMAGE_KB (52).
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import sharp from 'sharp';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 20000);
const IMAGE_KB = Number(process.env.BENCH_IMAGE_KB ?? 52);
const root = path.resolve(import.meta.dirname, '..');
const log = (m: string) => process.stderr.write(`[dataset-processing] ${m}\n`);

/** A streaming zip writer (stored entries, no zip64: < 4 GB, < 65,535 entries). */
class ZipWriter {
  private offset = 0;
  private central: Buffer[] = [];
  private count = 0;
  constructor(private readonly fd: number) {}
  add(name: string, data: Buffer, crc: number) {
    const n = Buffer.from(name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt32LE(crc >>> 0, 14);
    h.writeUInt32LE(data.length, 18);
    h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(n.length, 26);
    fs.writeSync(this.fd, h);
    fs.writeSync(this.fd, n);
    fs.writeSync(this.fd, data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt32LE(crc >>> 0, 16);
    c.writeUInt32LE(data.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(this.offset, 42);
    this.central.push(c, n);
    this.offset += 30 + n.length + data.length;
    this.count += 1;
  }
  finish() {
    const cd = Buffer.concat(this.central);
    fs.writeSync(this.fd, cd);
    const e = Buffer.alloc(22);
    e.writeUInt32LE(0x06054b50, 0);
    e.writeUInt16LE(this.count, 8);
    e.writeUInt16LE(this.count, 10);
    e.writeUInt32LE(cd.length, 12);
    e.writeUInt32LE(this.offset, 16);
    fs.writeSync(this.fd, e);
  }
}

async function makeDataset(file: string) {
  // 64 distinct noisy JPEGs of about IMAGE_KB each, reused under different names.
  // Noise JPEGs at quality 80 take about 0.65 byte per pixel.
  const side = Math.round(Math.sqrt((IMAGE_KB * 1024) / 0.65));
  const variants: Array<{ data: Buffer; crc: number }> = [];
  for (let i = 0; i < 64; i++) {
    const raw = crypto.randomBytes(side * side * 3);
    const data = await sharp(raw, { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
    variants.push({ data, crc: zlib.crc32(data) });
  }
  const fd = fs.openSync(file, 'w');
  const zip = new ZipWriter(fd);
  zip.add('bench/data.yaml', Buffer.from('names: [a, b, c]\ntrain: images/train\nval: images/val\n'), zlib.crc32('names: [a, b, c]\ntrain: images/train\nval: images/val\n'));
  for (let i = 0; i < IMAGES; i++) {
    const split = i % 10 === 0 ? 'val' : 'train';
    const v = variants[i % variants.length]!;
    zip.add(`bench/images/${split}/img_${i}.jpg`, v.data, v.crc);
    const label = Buffer.from(`${i % 3} 0.5 0.5 0.2 0.3\n${(i + 1) % 3} 0.3 0.3 0.1 0.1\n`);
    zip.add(`bench/labels/${split}/img_${i}.txt`, label, zlib.crc32(label));
  }
  zip.finish();
  fs.closeSync(fd);
}

function peakRssMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-ds-'));
  const zipPath = path.join(dir, 'bench.zip');
  let server: ReturnType<typeof spawn> | null = null;
  try {
    log(`generating ${IMAGES} images…`);
    await makeDataset(zipPath);
    const bytes = fs.statSync(zipPath).size;
    log(`archive ${(bytes / 1024 ** 3).toFixed(2)} GB`);
    let t = performance.now();
    execFileSync('unzip', ['-tq', zipPath], { stdio: 'ignore' });
    const unzipS = (performance.now() - t) / 1000;

    const port = 3400 + Math.floor(Math.random() * 400);
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', NODE_ENV: 'production', SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/alive`).then((r) => r.ok, () => false)) break;
      if (i > 120) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
    const rssIdle = peakRssMb(server.pid!);
    const signup = await fetch(`${base}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'b@example.com', password: 'bench-pass-1', username: 'bench', firstName: 'B' }) });
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const uid = ((await signup.json()) as { data: { user: { id: string } } }).data.user.id;
    const ds = ((await (await fetch(`${base}/v1/datasets`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ meta: { name: 'bench' }, task: 'detect' }) })).json()) as { data: { id: string } }).data;
    const tok = ((await (await fetch(`${base}/v1/uploads/token`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ path: `users/${uid}/datasets/${ds.id}/bench.zip`, bytes }) })).json()) as { data: { token: string } }).data.token;

    t = performance.now();
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const create = await fetch(`${base}/v1/uploads/tus`, { method: 'POST', headers: { cookie, 'tus-resumable': '1.0.0', 'upload-length': String(bytes), 'upload-metadata': `token ${b64(tok)},filename ${b64('bench.zip')}` } });
    const location = new URL(create.headers.get('location')!, base).href;
    const CHUNK = 16 * 1024 * 1024;
    const fd = fs.openSync(zipPath, 'r');
    for (let offset = 0; offset < bytes; offset += CHUNK) {
      const buf = Buffer.alloc(Math.min(CHUNK, bytes - offset));
      fs.readSync(fd, buf, 0, buf.length, offset);
      const res = await fetch(location, { method: 'PATCH', headers: { cookie, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: buf });
      if (res.status !== 204) throw new Error(`PATCH answered ${res.status}: ${await res.text()}`);
    }
    fs.closeSync(fd);
    const uploadS = (performance.now() - t) / 1000;
    const rssUpload = peakRssMb(server.pid!);

    t = performance.now();
    await fetch(`${base}/v1/datasets/${ds.id}/process`, { method: 'POST', headers: { cookie } });
    let status = '';
    for (;;) {
      const d = ((await (await fetch(`${base}/v1/datasets/${ds.id}`, { headers: { cookie } })).json()) as { data: { status: string; error: string | null } }).data;
      status = d.status;
      if (status === 'Ready' || status === 'Failed') {
        if (status === 'Failed') throw new Error(`processing failed: ${d.error}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    const processS = (performance.now() - t) / 1000;
    const rssProcess = peakRssMb(server.pid!);
    const mb = bytes / 1024 ** 2;
    console.log(
      JSON.stringify({
        bench: 'dataset-processing',
        images: IMAGES,
        archiveMB: Math.round(mb),
        upload: { seconds: Math.round(uploadS * 10) / 10, MBps: Math.round((mb / uploadS) * 10) / 10 },
        processing: { seconds: Math.round(processS * 10) / 10, MBps: Math.round((mb / processS) * 10) / 10, imagesPerSec: Math.round(IMAGES / processS) },
        unzipTest: { seconds: Math.round(unzipS * 10) / 10, MBps: Math.round((mb / unzipS) * 10) / 10 },
        serverPeakRssMB: { idle: rssIdle, afterUpload: rssUpload, afterProcessing: rssProcess },
      }),
    );
  } finally {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
