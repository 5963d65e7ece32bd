import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoboflowClient } from '../src/modules/integrations/roboflow.client.js';
import { FakeRoboflow, sampleDetectionProject } from './support/fake-roboflow.js';

// Whose fault it is: a server without a network path to Roboflow says so and leaves the key alone; a key
// Roboflow answers 401 for is still the key's fault. The network edge is the local fake Roboflow.
const KEY = 'private-key-offline-1234';
let fake: FakeRoboflow;
beforeAll(async () => {
  fake = await new FakeRoboflow([{ slug: 'acme', name: 'Acme Vision', projects: [sampleDetectionProject('shapes-4ckfl')] }], { [KEY]: 'acme' }).start();
});
afterAll(async () => {
  await fake.stop();
});

const client = (baseUrl: string, apiKey = KEY) => new RoboflowClient({ baseUrl, apiKey, retryBaseMs: 1, retries: 1, timeoutMs: 2000 });

describe('Roboflow errors say whose fault they are', () => {
  it('no network: roboflow/unreachable, a message about the server, the key not blamed nor shown', async () => {
    fake.offline = true;
    try {
      const err = await client(fake.url)
        .root()
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'roboflow/unreachable', retryable: true });
      const message = (err as Error).message;
      expect(message).toMatch(/server cannot reach Roboflow/);
      expect(message).toMatch(/not your API key/);
      expect(message).not.toContain(KEY);
    } finally {
      fake.offline = false;
    }
    // A refused connection (nothing listens) reads the same.
    const refused = await client('http://127.0.0.1:9')
      .root()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'roboflow/unreachable' });
    expect((refused as Error).message).toMatch(/ECONNREFUSED|connect/);
  });

  it('a wrong key (401) still blames the key', async () => {
    await expect(client(fake.url, 'wrong-key-123456').root()).rejects.toMatchObject({ code: 'roboflow/invalid-key' });
    await expect(client(fake.url).root()).resolves.toMatchObject({ workspace: 'acme' });
  });
});
