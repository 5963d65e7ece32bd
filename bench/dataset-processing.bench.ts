/**
 * Dataset processing on a generated detection dataset (5,000 640×480 JPEGs, about 400 MB, made here
 * with sharp): resumable upload over HTTP (tus), then POST /v1/datasets/{id}/process. Measures the
 * time to Ready, and to Ready plus the first page of thumbnails a person sees (they are made on first
 * view and kept), each as a ratio to `unzip -t` on the same file (the disk + inflate + CRC bound,
 * median of 3) in the same run, and the server's RSS growth during processing and that first view
 * (peak RSS, reset before processing, minus RSS when it starts). For the record it also views every
 * image's preview once and prints that time.
 *
 * Targets: Ready ≤ 4× unzip -t, thumbnails (Ready + first page) ≤ 8×, RSS growth ≤ 150 MB.
 *
 * Against ultralytics itself (ADR 0043), on the same zip in the same run, with the real client (8.3.x,
 * found as the client suite finds it; skipped with a printed line where it cannot run):
 *   Ready ≤ 1.0× `HUBDatasetStats(zip)` (its unzip and dataset checks) + `get_json()`;
 *   viewing every image's preview once ≤ 1.0× `process_images()` (its HUB previews of every image).
 * Both sides also report the CPU seconds they used (the server's with its embedded PostgreSQL).
 *
 * The server runs as a child process (`tsx apps/server/src/main.ts`) so its memory is measured
 * alone; it uses the embedded default database unless DATABASE_URL is set.
 * Env: BENCH_IMAGES (5000); BENCH_NODE_ARGS, extra node flags for the server child (`--cpu-prof`,
 * `--perf-basic-prof` to profile it).
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { treeCpuSeconds } from './support/process-cpu.js';
import { runPython, ultralyticsEnv } from './support/ultralytics.js';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 5000);
/** The web app's image browser page (apps/web images-tab.tsx IMAGES_PER_PAGE) and a browser's connections per host. */
const PAGE = 48;
const BROWSER_CONNECTIONS = 6;
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
  // 64 distinct 640×480 JPEGs of about 80 KB each (blurred upscaled noise), reused under different names.
  const variants: Array<{ data: Buffer; crc: number }> = [];
  for (let i = 0; i < 64; i++) {
    const noise = crypto.randomBytes(160 * 120 * 3);
    const big = await sharp(noise, { raw: { width: 160, height: 120, channels: 3 } })
      .resize(640, 480)
      .raw()
      .toBuffer();
    const data = await sharp(big, { raw: { width: 640, height: 480, channels: 3 } })
      .blur(1)
      .jpeg({ quality: 70 })
      .toBuffer();
    variants.push({ data, crc: zlib.crc32(data) });
  }
  const fd = fs.openSync(file, 'w');
  const zip = new ZipWriter(fd);
  zip.add(
    'bench/data.yaml',
    Buffer.from('names: [a, b, c]\ntrain: images/train\nval: images/val\n'),
    zlib.crc32('names: [a, b, c]\ntrain: images/train\nval: images/val\n'),
  );
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

function rssMb(pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM') {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024);
}

/** Resets the peak RSS of a process (Linux: `echo 5 > /proc/PID/clear_refs`); false where not allowed. */
function resetPeak(pid: number) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * A browser's image requests: at most `BROWSER_CONNECTIONS` kept-alive connections to the server, every
 * byte of the answer read. Plain node:http rather than fetch, whose per-response streams cost the bench
 * about as much CPU as the server's answer on the same two cores (ADR 0043).
 */
const imageAgent = new http.Agent({ keepAlive: true, maxSockets: BROWSER_CONNECTIONS });
function getImage(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: imageAgent }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * ultralytics' own dataset path on the same zip: `HUBDatasetStats` (unzip, checks) + `get_json()` (the
 * statistics HUB shows when a dataset is ready), then `process_images()` (a preview of every image, which
 * HUB made at upload). Wall and CPU seconds of each step; importing ultralytics (torch) is not counted.
 */
const ULTRALYTICS_SCRIPT = `
import json, sys, time
from ultralytics.data.utils import HUBDatasetStats
from ultralytics.utils import NUM_THREADS
t0, c0 = time.perf_counter(), time.process_time()
stats = HUBDatasetStats(sys.argv[1], task="detect")
j = stats.get_json()
t1, c1 = time.perf_counter(), time.process_time()
out = stats.process_images()
t2, c2 = time.perf_counter(), time.process_time()
import os
made = len(os.listdir(out))
print(json.dumps({"statsS": t1 - t0, "statsCpuS": c1 - c0, "processImagesS": t2 - t1, "processImagesCpuS": c2 - c1,
                  "previews": made, "images": sum(j[s]["image_stats"]["total"] for s in ("train", "val") if j.get(s)), "threads": NUM_THREADS}))
`;

interface UltralyticsRun {
  statsS: number;
  statsCpuS: number;
  processImagesS: number;
  processImagesCpuS: number;
  previews: number;
  images: number;
  threads: number;
}

function runUltralytics(zipPath: string): { run: UltralyticsRun; version: string } | { skipped: string } {
  const found = ultralyticsEnv();
  if ('skipped' in found) return found;
  // Its own copy of the zip: HUBDatasetStats unzips beside it and writes a -hub folder there.
  const dir = fs.mkdtempSync(path.join(path.dirname(zipPath), 'ultralytics-'));
  const copy = path.join(dir, path.basename(zipPath));
  fs.copyFileSync(zipPath, copy);
  try {
    const version = runPython<{ v: string }>(found.env, 'import json, ultralytics; print(json.dumps({"v": ultralytics.__version__}))', []).v;
    const run = runPython<UltralyticsRun>(found.env, ULTRALYTICS_SCRIPT, [copy]);
    if (run.previews !== IMAGES || run.images !== IMAGES)
      throw new Error(`ultralytics saw ${run.images} images and made ${run.previews} previews of ${IMAGES}`);
    return { run, version };
  } catch (err) {
    return { skipped: `ultralytics could not run: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function countFiles(dir: string, suffix: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && e.name.endsWith(suffix)) n++;
  return n;
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
    const unzipRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      execFileSync('unzip', ['-tq', zipPath], { stdio: 'ignore' });
      unzipRuns.push((performance.now() - t0) / 1000);
    }
    const unzipS = median(unzipRuns);
    log('ultralytics: HUBDatasetStats + get_json, then process_images, on the same zip…');
    const ultralytics = runUltralytics(zipPath);
    if ('skipped' in ultralytics) log(`SKIP the ultralytics comparison: ${ultralytics.skipped}`);
    else
      log(
        `ultralytics ${ultralytics.version}: stats ${round(ultralytics.run.statsS, 2)} s, process_images ${round(ultralytics.run.processImagesS, 2)} s (${ultralytics.run.threads} thread(s))`,
      );
    let t = performance.now();

    const port = 3400 + Math.floor(Math.random() * 400);
    server = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, 'data'),
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/alive`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 120) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
    const rssIdle = rssMb(server.pid!, 'VmRSS');
    const signup = await fetch(`${base}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'b@example.com', password: 'bench-pass-1', username: 'bench', firstName: 'B' }),
    });
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const uid = ((await signup.json()) as { data: { user: { id: string } } }).data.user.id;
    const ds = (
      (await (
        await fetch(`${base}/v1/datasets`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ meta: { name: 'bench' }, task: 'detect' }),
        })
      ).json()) as { data: { id: string } }
    ).data;
    const tok = (
      (await (
        await fetch(`${base}/v1/uploads/token`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ path: `users/${uid}/datasets/${ds.id}/bench.zip`, bytes }),
        })
      ).json()) as { data: { token: string } }
    ).data.token;

    t = performance.now();
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const create = await fetch(`${base}/v1/uploads/tus`, {
      method: 'POST',
      headers: { cookie, 'tus-resumable': '1.0.0', 'upload-length': String(bytes), 'upload-metadata': `token ${b64(tok)},filename ${b64('bench.zip')}` },
    });
    const location = new URL(create.headers.get('location')!, base).href;
    const CHUNK = 16 * 1024 * 1024;
    const fd = fs.openSync(zipPath, 'r');
    for (let offset = 0; offset < bytes; offset += CHUNK) {
      const buf = Buffer.alloc(Math.min(CHUNK, bytes - offset));
      fs.readSync(fd, buf, 0, buf.length, offset);
      const res = await fetch(location, {
        method: 'PATCH',
        headers: { cookie, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: buf,
      });
      if (res.status !== 204) throw new Error(`PATCH answered ${res.status}: ${await res.text()}`);
    }
    fs.closeSync(fd);
    const uploadS = (performance.now() - t) / 1000;
    const rssUpload = rssMb(server.pid!);
    const rssBefore = rssMb(server.pid!, 'VmRSS');
    const peakReset = resetPeak(server.pid!);
    const thumbsDir = path.join(dir, 'data');
    const thumbsBefore = countFiles(thumbsDir, '.jpg');

    t = performance.now();
    await fetch(`${base}/v1/datasets/${ds.id}/process`, { method: 'POST', headers: { cookie } });
    let status = '';
    for (;;) {
      const d = ((await (await fetch(`${base}/v1/datasets/${ds.id}`, { headers: { cookie } })).json()) as { data: { status: string; error: string | null } })
        .data;
      status = d.status;
      if (status === 'Ready' || status === 'Failed') {
        if (status === 'Failed') throw new Error(`processing failed: ${d.error}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const processS = (performance.now() - t) / 1000;
    // Thumbnails are made on first view and kept (ADR 0019): what a person
    // waits for is the first page of the image browser (the web app's page size, fetched as a browser
    // does: six connections to one host). Then the same page again (stored previews), then every
    // image's preview viewed once, for the record.
    const viewPage = async (offset: number, limit: number) => {
      const page = (
        (await (await fetch(`${base}/v1/datasets/${ds.id}/images?limit=${limit}&offset=${offset}`, { headers: { cookie } })).json()) as {
          data: { results: Array<{ thumbUrl: string | null }> };
        }
      ).data;
      const urls = page.results.map((i) => i.thumbUrl);
      if (urls.some((u) => !u)) throw new Error('an image has no preview link');
      let next = 0;
      const worker = async () => {
        while (next < urls.length) {
          const { status, bytes } = await getImage(`${base}${urls[next++]}`);
          if (status !== 200 || bytes < 100) throw new Error(`thumbnail answered ${status} (${bytes} bytes)`);
        }
      };
      await Promise.all(Array.from({ length: BROWSER_CONNECTIONS }, worker));
      return urls.length;
    };
    t = performance.now();
    await viewPage(0, PAGE);
    const firstViewS = (performance.now() - t) / 1000;
    const thumbsS = processS + firstViewS;
    t = performance.now();
    await viewPage(0, PAGE);
    const secondViewS = (performance.now() - t) / 1000;
    const rssFirstView = rssMb(server.pid!);
    const cpuBefore = treeCpuSeconds(server.pid!);
    const benchCpuBefore = process.cpuUsage();
    t = performance.now();
    for (let offset = PAGE; offset < IMAGES; offset += 200) await viewPage(offset, 200);
    const sweepRestS = (performance.now() - t) / 1000;
    const sweepS = sweepRestS + firstViewS;
    const cpuAfter = treeCpuSeconds(server.pid!);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    // CPU of the sweep after the first page (the first page's CPU is not separated from the processing's).
    const sweepCpu = {
      server: round(cpuAfter.main - cpuBefore.main, 2),
      database: round(cpuAfter.children - cpuBefore.children, 2),
      client: round((benchCpu.user + benchCpu.system) / 1e6, 2),
      images: IMAGES - PAGE,
    };
    const stored = countFiles(thumbsDir, '.jpg') - thumbsBefore;
    if (stored !== IMAGES) throw new Error(`${stored} previews stored after viewing all ${IMAGES}`);
    const rssProcess = rssFirstView;
    const mb = bytes / 1024 ** 2;
    const growth = rssProcess - rssBefore;
    const ul = 'run' in ultralytics ? ultralytics.run : null;
    const vsUltralytics = ul
      ? {
          readyVsHubStats: { ratio: round(processS / ul.statsS, 2), limit: 1, ok: processS / ul.statsS <= 1 },
          previewsVsProcessImages: { ratio: round(sweepS / ul.processImagesS, 2), limit: 1, ok: sweepS / ul.processImagesS <= 1 },
        }
      : {};
    const targets = {
      ...vsUltralytics,
      readyVsUnzip: { ratio: round(processS / unzipS, 2), limit: 4, ok: processS / unzipS <= 4 },
      thumbnailsVsUnzip: { ratio: round(thumbsS / unzipS, 2), limit: 8, ok: thumbsS / unzipS <= 8 },
      rssGrowthMB: {
        value: growth,
        limit: 150,
        ok: growth <= 150,
        measured: peakReset ? 'peak during processing and the first view' : 'peak since start (clear_refs not allowed)',
      },
    };
    for (const [name, v] of Object.entries(targets))
      log(`${v.ok ? 'PASS' : 'FAIL'} ${name}: ${'ratio' in v ? `${v.ratio}× (≤ ${v.limit}×)` : `${v.value} MB (≤ ${v.limit} MB)`}`);
    console.log(
      JSON.stringify({
        bench: 'dataset-processing',
        load: os.loadavg().map((x) => round(x, 2)),
        images: IMAGES,
        archiveMB: Math.round(mb),
        upload: { seconds: round(uploadS), MBps: round(mb / uploadS) },
        ready: { seconds: round(processS), MBps: round(mb / processS), imagesPerSec: Math.round(IMAGES / processS) },
        thumbnails: {
          made: 'on first view, kept',
          firstPage: { images: PAGE, connections: BROWSER_CONNECTIONS, secondsAfterReady: round(firstViewS, 2), readyPlusFirstPageSeconds: round(thumbsS, 2) },
          samePageAgain: { seconds: round(secondViewS, 3) },
          everyImageViewedOnce: {
            seconds: round(sweepS, 2),
            ratioToUnzip: round(sweepS / unzipS, 1),
            imagesPerSec: Math.round(IMAGES / sweepS),
            cpuSecondsAfterFirstPage: sweepCpu,
            serverCpuMsPerPreview: round(((sweepCpu.server + sweepCpu.database) * 1000) / sweepCpu.images, 2),
          },
        },
        ultralytics:
          'run' in ultralytics
            ? {
                version: ultralytics.version,
                threads: ultralytics.run.threads,
                hubStatsPlusGetJson: { seconds: round(ultralytics.run.statsS, 2), cpuSeconds: round(ultralytics.run.statsCpuS, 2) },
                processImages: {
                  seconds: round(ultralytics.run.processImagesS, 2),
                  cpuSeconds: round(ultralytics.run.processImagesCpuS, 2),
                  cpuMsPerPreview: round((ultralytics.run.processImagesCpuS * 1000) / IMAGES, 2),
                },
                readyRatio: round(processS / ultralytics.run.statsS, 2),
                previewsRatio: round(sweepS / ultralytics.run.processImagesS, 2),
              }
            : { skipped: ultralytics.skipped },
        unzipTest: { seconds: round(unzipS, 2), runs: unzipRuns.map((x) => round(x, 2)), MBps: round(mb / unzipS) },
        serverRssMB: {
          idle: rssIdle,
          peakAfterUpload: rssUpload,
          atProcessStart: rssBefore,
          peakDuringProcessingAndFirstView: rssProcess,
          peakAfterEveryPreview: rssMb(server.pid!),
        },
        targets,
      }),
    );
    if (!Object.values(targets).every((v) => v.ok)) process.exitCode = 1;
  } finally {
    imageAgent.destroy();
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
