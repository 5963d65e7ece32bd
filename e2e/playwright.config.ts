import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

export const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
// The SMTP sink's ports follow the server port so several e2e runs can share a machine.
export const SINK_SMTP_PORT = PORT + 1000;
export const SINK_HTTP_PORT = PORT + 1001;
export const SINK_HTTP = `http://127.0.0.1:${SINK_HTTP_PORT}`;
export const FAKE_ROBOFLOW_PORT = PORT + 1002;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-e2e-'));
const root = path.resolve(import.meta.dirname, '..');

const LONG_SPECS = ['**/every-route.spec.ts'];

/** Debian's Chromium with the flags this closed network needs (no browser download). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: false,
  // Two spec files at a time (E2E_WORKERS=1: one). Specs that need a server of their own start it on
  // a port offset no other spec uses; the specs on the shared server make their own accounts (a
  // worker's index is in every generated address), never count what others make, and cut the fake
  // Roboflow off the network for their own key only. A spec's tests still run in order in one worker.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // The spec servers' data folder template (support/server-template.ts), made once the web servers are up.
  globalSetup: './support/global-setup.ts',
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
  },
  // The same browser twice: the longest spec (every-route, minutes of axe runs) in a project listed
  // first, so a worker takes it at the start instead of it being the last file of the run.
  projects: [
    {
      name: 'chromium-long',
      testMatch: LONG_SPECS,
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs } },
    },
    {
      name: 'chromium',
      testIgnore: LONG_SPECS,
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs } },
    },
  ],
  webServer: [
    {
      command: 'npx tsx e2e/support/mail-sink.ts',
      cwd: root,
      env: { SINK_SMTP_PORT: String(SINK_SMTP_PORT), SINK_HTTP_PORT: String(SINK_HTTP_PORT) },
      url: `${SINK_HTTP}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'npx tsx e2e/support/fake-roboflow.ts',
      cwd: root,
      env: { FAKE_ROBOFLOW_PORT: String(FAKE_ROBOFLOW_PORT) },
      url: `http://127.0.0.1:${FAKE_ROBOFLOW_PORT}/__img/icons/x/thumb.jpg`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'npx tsx apps/server/src/main.ts',
      cwd: root,
      url: `${BASE_URL}/alive`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: BASE_URL,
        SMTP_URL: `smtp://127.0.0.1:${SINK_SMTP_PORT}`,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        ROBOFLOW_API_URL: `http://127.0.0.1:${FAKE_ROBOFLOW_PORT}`,
        ROBOFLOW_POLL_MS: '300',
      },
    },
  ],
});
