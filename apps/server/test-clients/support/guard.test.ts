import { describe, expect, it } from 'vitest';
import { clients, runClient } from './clients.js';

const found = clients();

describe('the real clients', () => {
  for (const generation of ['legacy', 'platform'] as const) {
    it.skipIf(!found[generation])(`${generation}: yolo on PATH reports the version the suite found`, async () => {
      const client = found[generation]!;
      const run = await runClient(client, 'yolo version', { timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim().split(/\s+/).pop()).toBe(client.version);
    });
  }
});
