import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', include: ['src/**/*.test.ts'], environment: 'node' } },
      // Architecture guards: the lint rules fail on planted violations; arch:check counts them.
      { test: { name: 'arch', root: 'scripts/arch', include: ['*.test.ts'], environment: 'node', testTimeout: 60_000 } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
          // One retry on CI: a test that needs it is still reported (and should be fixed), but a
          // timing hiccup on a loaded 2-core runner does not block a landing.
          retry: process.env.CI ? 1 : 0,
        },
      },
      './apps/web/vitest.config.ts',
      // The real ultralytics clients against a real server (npm run test:clients; budget 4 minutes, 6 with the clients setup).
      {
        test: {
          name: 'clients',
          root: 'apps/server',
          include: ['test-clients/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test-clients/support/global-setup.ts'],
          // The suite's servers run on the PostgreSQL of the server suite (each file its own schema):
          // a fresh PGlite takes 5–30 s to migrate on a busy 2-core machine. TEST_DB=pglite still works.
          env: { TEST_DB: process.env.TEST_DB ?? 'postgres' },
          testTimeout: 300_000,
          hookTimeout: 600_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
      // Two instances on one PostgreSQL behind nginx with s3rver (npm run test:scaleout; budget 3 minutes).
      {
        test: {
          name: 'scaleout',
          root: 'apps/server',
          include: ['test-scaleout/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 240_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
      // The agent's own tests (parsers); its runs against a real server are in the server suite.
      { test: { name: 'agent', root: 'apps/agent', include: ['src/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
