import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compatInternalImports } from './compat-entries.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arch-compat-'));
const put = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('compat adapters import only a module’s public entry (ADR 0032)', () => {
  it('counts repository, helper and type-only imports, not the service entry or index', () => {
    put('apps/server/src/modules/training/training.service.ts', 'export const start = 1;');
    put('apps/server/src/modules/training/training.repository.ts', 'export type Row = {};');
    put('apps/server/src/modules/training/training.metrics.ts', 'export const m = 1;');
    put('apps/server/src/modules/access/index.ts', 'export const a = 1;');
    put(
      'apps/server/src/compat/hub/hub.routes.ts',
      [
        "import * as training from '../../modules/training/training.service.js';",
        "import { a } from '../../modules/access/index.js';",
        "import type { Row } from '../../modules/training/training.repository.js';",
        "import { m } from '../../modules/training/training.metrics.js';",
      ].join('\n'),
    );
    put('apps/server/src/compat/hub/hub.routes.test.ts', "import { m } from '../../modules/training/training.metrics.js';");
    const found = compatInternalImports(root);
    expect(found.map((f) => [f.file, f.line])).toEqual([
      ['apps/server/src/compat/hub/hub.routes.ts', 3],
      ['apps/server/src/compat/hub/hub.routes.ts', 4],
    ]);
  });
});

describe('app.ts imports only <x>.module.ts of modules (ADR 0032)', () => {
  it('counts a routes file, not a module file', async () => {
    const { appModuleInternals } = await import('./app-modules.js');
    put('apps/server/src/modules/teams/teams.module.ts', 'export const register = () => undefined;');
    put('apps/server/src/modules/teams/teams.routes.ts', 'export const teamsRoutes = 1;');
    put(
      'apps/server/src/app.ts',
      ["import * as teams from './modules/teams/teams.module.js';", "import { teamsRoutes } from './modules/teams/teams.routes.js';"].join('\n'),
    );
    expect(appModuleInternals(root).map((f) => f.line)).toEqual([2]);
  });
});
