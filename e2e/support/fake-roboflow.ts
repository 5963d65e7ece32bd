/**
 * The local fake Roboflow (apps/server/test/support/fake-roboflow.ts) as a process for the e2e run:
 * one workspace "acme" with the sample detection project, readable with E2E_ROBOFLOW_KEY (and
 * E2E_ROBOFLOW_OFFLINE_KEY, for the offline check). Started
 * by playwright.config.ts; the server under test gets ROBOFLOW_API_URL pointing here.
 */
import { FakeRoboflow, sampleDetectionProject } from '../../apps/server/test/support/fake-roboflow.js';
import { E2E_ROBOFLOW_KEY, E2E_ROBOFLOW_OFFLINE_KEY } from './roboflow-key.js';

const port = Number(process.env.FAKE_ROBOFLOW_PORT ?? 4102);

const fake = new FakeRoboflow(
  [
    {
      slug: 'acme',
      name: 'Acme Vision',
      projects: [
        sampleDetectionProject('shapes-4ckfl'),
        // An export Roboflow never finishes: the import stays in flight (shown on /active-jobs) until cancelled.
        { ...sampleDetectionProject('slow-9k2'), name: 'Slow export', versions: [{ number: 1, name: 'raw', neverReady: true }], icon: false },
        { ...sampleDetectionProject('hands-x1'), name: 'Hands', type: 'keypoint-detection', icon: false },
        { ...sampleDetectionProject('new-project'), name: 'Fresh project', versions: [], icon: false },
      ],
    },
  ],
  { [E2E_ROBOFLOW_KEY]: 'acme', [E2E_ROBOFLOW_OFFLINE_KEY]: 'acme' },
);
await fake.start(port);
process.stdout.write(`fake roboflow on ${fake.url}\n`);
