import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', include: ['src/**/*.test.ts'], environment: 'node' } },
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
    ],
  },
});
