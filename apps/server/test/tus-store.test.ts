import fs from 'node:fs';
import { expect, it } from 'vitest';
import { createTestApp, signUpUser } from './helpers/harness.js';
/**
 * The tus FileStore used to create its folder with an fs.mkdir whose error it threw from the callback:
 * when the data folder went away right after the first upload request (a quick test teardown, a wiped
 * volume), the process died of an uncaught exception. The folder is now made once, synchronously, at
 * registration; vitest fails this file on any uncaught exception.
 */
it('the data folder removed right after a first tus request takes nothing down', async () => {
  for (let i = 0; i < 5; i++) {
    const t = await createTestApp();
    const u = await signUpUser(t.app);
    const r = await t.app.inject({ method: 'OPTIONS', url: '/v1/uploads/tus', headers: { cookie: u.cookie, 'tus-resumable': '1.0.0' } });
    expect(r.statusCode).toBeLessThan(300);
    fs.rmSync(t.config.dataDir, { recursive: true, force: true });
    await t.close();
  }
  // Long enough for a pending fs.mkdir callback to have run (and thrown, before the fix).
  await new Promise((r) => setTimeout(r, 500));
});
