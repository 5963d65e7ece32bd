/**
 * The JavaScript a first visit to /signin downloads, as the browser sees it: the real server (which
 * compresses assets) and Debian's Chromium; sums the encoded (over-the-wire) and gzipped sizes of
 * every script response until the page is idle. Target: ≤ 250 kB gzipped. Needs `npm run build -w
 * @sightline/web` first (`npm run bench` does it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { chromium } from '@playwright/test';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-web-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    JOBS_ENABLED: 'false',
  });
  const app = await buildApp({ config, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
  try {
    const results = [];
    for (const route of ['/signin']) {
      const page = await browser.newPage();
      const scripts: Array<{ url: string; wire: number; gzip: number }> = [];
      page.on('requestfinished', async (req) => {
        if (req.resourceType() !== 'script') return;
        const res = await req.response();
        const body = res ? await res.body() : Buffer.alloc(0);
        const sizes = await req.sizes();
        scripts.push({ url: new URL(req.url()).pathname, wire: sizes.responseBodySize, gzip: zlib.gzipSync(body).length });
      });
      await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
      await page.close();
      const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
      results.push({
        route,
        scripts: scripts.length,
        wireKB: kb(scripts.reduce((a, s) => a + s.wire, 0)),
        gzipKB: kb(scripts.reduce((a, s) => a + s.gzip, 0)),
        largest: scripts
          .sort((a, b) => b.gzip - a.gzip)
          .slice(0, 3)
          .map((s) => ({ file: path.basename(s.url), gzipKB: kb(s.gzip) })),
      });
    }
    console.log(JSON.stringify({ bench: 'web-initial-js', targetGzipKB: 250, results }));
  } finally {
    await browser.close();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
