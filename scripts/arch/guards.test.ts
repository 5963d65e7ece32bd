/**
 * The architecture guards fail on planted violations. Each case writes a tiny tree that mirrors
 * the repository layout into a temporary folder, lints it with the repository's own
 * eslint.config.js (all guards on), and expects the guard's error — and no error on the allowed twin.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, counts } from './arch-check.js';
import { foreignRepositoryImports } from './foreign-repositories.js';

const repo = path.resolve(import.meta.dirname, '../..');
let dir: string;

function plant(files: Record<string, string>) {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

async function lint(rel: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: path.join(repo, 'eslint.config.js') });
  const [result] = await eslint.lintFiles([path.join(dir, rel)]);
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

beforeAll(() => {
  process.env.ARCH_GUARDS = 'all';
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arch-guards-'));
  process.env.ARCH_ROOT = dir;
  plant({
    'apps/server/src/platform/db/schema.ts': 'export const users = {};\n',
    'apps/server/src/platform/http/errors.ts': 'export const errors = {};\n',
    'apps/server/src/modules/users/users.repository.ts': "import { users } from '../../platform/db/schema.js';\nexport const usersRepository = { users };\n",
    'apps/server/src/modules/users/users.service.ts': "import { usersRepository } from './users.repository.js';\nexport const find = () => usersRepository;\n",
    'apps/server/src/compat/hub/hub.presenter.ts': 'export const presentHub = (x: unknown) => x;\n',
    'apps/web/src/features/models/index.ts': "export { ModelBadge } from './components/model-badge';\n",
    'apps/web/src/features/models/components/model-badge.ts': 'export const ModelBadge = 1;\n',
    'apps/web/src/features/projects/index.ts': 'export {};\n',
  });
});
afterAll(() => {
  delete process.env.ARCH_GUARDS;
  delete process.env.ARCH_ROOT;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('lint guards', () => {
  it('a route may not import the schema or drizzle; it calls a service', async () => {
    plant({
      'apps/server/src/modules/users/bad.routes.ts':
        "import { eq } from 'drizzle-orm';\nimport { users } from '../../platform/db/schema.js';\nexport const leak = [eq, users];\n",
      'apps/server/src/modules/users/good.routes.ts': "import { find } from './users.service.js';\nexport const ok = find;\n",
    });
    const bad = await lint('apps/server/src/modules/users/bad.routes.ts');
    expect(bad).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^no-restricted-imports: .*drizzle-orm/),
        expect.stringMatching(/^arch-routes\/no-restricted-paths: .*schema/),
      ]),
    );
    expect(await lint('apps/server/src/modules/users/good.routes.ts')).toEqual([]);
    expect(await lint('apps/server/src/modules/users/users.repository.ts')).toEqual([]);
  });

  it('a compat adapter may not import the schema', async () => {
    plant({ 'apps/server/src/compat/hub/hub.routes.ts': "import { users } from '../../platform/db/schema.js';\nexport const leak = users;\n" });
    expect(await lint('apps/server/src/compat/hub/hub.routes.ts')).toEqual([expect.stringMatching(/^arch-routes\/no-restricted-paths/)]);
  });

  it('platform may not import a module', async () => {
    plant({ 'apps/server/src/platform/http/auth-context.ts': "import { find } from '../../modules/users/users.service.js';\nexport const who = find;\n" });
    expect(await lint('apps/server/src/platform/http/auth-context.ts')).toEqual([expect.stringMatching(/^arch-platform\/no-restricted-paths/)]);
  });

  it('a module may not import compat', async () => {
    plant({
      'apps/server/src/modules/users/users.presenter.ts': "import { presentHub } from '../../compat/hub/hub.presenter.js';\nexport const p = presentHub;\n",
    });
    expect(await lint('apps/server/src/modules/users/users.presenter.ts')).toEqual([expect.stringMatching(/^arch-modules\/no-restricted-paths/)]);
  });

  it('no import cycles on the server', async () => {
    plant({
      'apps/server/src/modules/projects/projects.service.ts': "import { m } from '../models/models.service.js';\nexport const p = () => m;\n",
      'apps/server/src/modules/models/models.service.ts': "import { p } from '../projects/projects.service.js';\nexport const m = () => p;\n",
    });
    expect(await lint('apps/server/src/modules/models/models.service.ts')).toEqual([expect.stringMatching(/^import-x\/no-cycle/)]);
  });

  it('no import cycles in the web app', async () => {
    plant({
      'apps/web/src/lib/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'apps/web/src/lib/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    expect(await lint('apps/web/src/lib/a.ts')).toEqual([expect.stringMatching(/^import-x\/no-cycle/)]);
  });

  it('realtime topics come from the contract, not from a template string', async () => {
    plant({
      'apps/server/src/modules/users/users.events.ts':
        "declare const bus: { publish(t: string, e: string, d: unknown): void };\nexport const send = (id: string) => bus.publish(`user:${id}`, 'user.deleted', { id });\n",
      'apps/web/src/features/models/hooks/use-live.ts':
        'declare function useTopic(t: string | null, h: () => void): void;\nexport const useLive = (id: string) => useTopic(id ? `model:${id}` : null, () => {});\n',
    });
    expect(await lint('apps/server/src/modules/users/users.events.ts')).toEqual([
      expect.stringMatching(/^no-restricted-syntax: Build realtime topics with topics/),
    ]);
    expect(await lint('apps/web/src/features/models/hooks/use-live.ts')).toEqual([
      expect.stringMatching(/^no-restricted-syntax: Build realtime topics with topics/),
    ]);
  });

  it("a web feature uses another feature only through that feature's index.ts", async () => {
    plant({
      'apps/web/src/features/projects/components/deep.ts': "import { ModelBadge } from '../../models/components/model-badge';\nexport const x = ModelBadge;\n",
      'apps/web/src/features/projects/components/public.ts': "import { ModelBadge } from '../../models';\nexport const x = ModelBadge;\n",
    });
    expect(await lint('apps/web/src/features/projects/components/deep.ts')).toEqual([
      expect.stringMatching(/^arch-features\/no-restricted-paths: .*features\/projects may use features\/models only through its public index.ts/),
    ]);
    expect(await lint('apps/web/src/features/projects/components/public.ts')).toEqual([]);
  });
});

describe('arch:check counts', () => {
  it('counts each kind of violation in a planted tree, and nothing in a clean one', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arch-check-'));
    try {
      const put = (rel: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      };
      put('apps/server/src/platform/db/schema.ts', 'export const users = {};\n');
      put(
        'apps/server/src/modules/users/users.repository.ts',
        "import { users } from '../../platform/db/schema.js';\nexport const byId = (db: any) => db.select().from(users);\n",
      );
      put(
        'apps/server/src/modules/users/users.routes.ts',
        "import { z } from 'zod';\nexport function routes(r: any) {\n  r.get('/v1/a', { schema: { response: { 200: z.object({}) } } }, async () => ({}));\n  r.get('/v1/file', {}, async (_q: any, reply: any) => reply.type('image/png').send(Buffer.alloc(1)));\n}\n",
      );
      put(
        'apps/server/src/modules/users/users.service.ts',
        "export const e = () => { throw new AppError(409, 'error/in-use', 'x'); };\ndeclare class AppError { constructor(s: number, c: string, m: string) }\n",
      );
      const codes = new Set(['error/in-use']);
      expect(counts(check(root, codes))).toEqual({
        queriesOutsideRepositories: 0,
        schemaImportsOutsideRepositories: 0,
        moduleCycles: 0,
        routesWithoutResponseSchema: 0,
        codesNotInContract: 0,
      });

      put(
        'apps/server/src/modules/users/users.service.ts',
        "import { users } from '../../platform/db/schema.js';\nimport { p } from '../projects/projects.service.js';\nexport const s = (ctx: any) => [ctx.db.select().from(users), ctx.db.transaction(async (tx: any) => tx.delete(users)), p];\nexport const e = () => { throw new AppError(409, 'error/made-up', 'x'); };\ndeclare class AppError { constructor(s: number, c: string, m: string) }\n",
      );
      put('apps/server/src/modules/projects/projects.service.ts', "import { s } from '../users/users.service.js';\nexport const p = () => s;\n");
      put(
        'apps/server/src/modules/users/more.routes.ts',
        "export function routes(r: any) {\n  r.post('/v1/b', { schema: {} }, async () => ({ ok: true }));\n}\n",
      );
      const report = check(root, codes);
      expect(counts(report)).toEqual({
        queriesOutsideRepositories: 2,
        schemaImportsOutsideRepositories: 1,
        moduleCycles: 2,
        routesWithoutResponseSchema: 1,
        codesNotInContract: 1,
      });
      expect(report.moduleCycles).toEqual([['modules/projects', 'modules/users']]);
      expect(report.routesWithoutResponseSchema[0]!.text).toBe('POST /v1/b');
      expect(report.codesNotInContract[0]!.text).toBe("'error/made-up'");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('the repository tree has no error code outside the contract', async () => {
    const { ErrorCode } = await import('../../packages/contracts/src/errors.js');
    expect(check(repo, new Set(Object.values(ErrorCode))).codesNotInContract).toEqual([]);
  });
});

describe('foreign repository imports (ADR 0033)', () => {
  it("counts every import of another folder's repository, type-only ones included, and none through its index.ts", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arch-foreign-'));
    try {
      const put = (rel: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      };
      put(
        'apps/server/src/modules/users/users.repository.ts',
        'export type UserRow = { id: string };\nexport const usersRepository = { byId: (id: string) => ({ id }) };\n',
      );
      put(
        'apps/server/src/modules/users/users.service.ts',
        "import { usersRepository } from './users.repository.js';\nexport const find = usersRepository.byId;\n",
      );
      put(
        'apps/server/src/modules/users/index.ts',
        "import { usersRepository } from './users.repository.js';\nexport type { UserRow } from './users.repository.js';\nexport const userQueries = { byId: usersRepository.byId };\n",
      );
      put(
        'apps/server/src/modules/projects/projects.service.ts',
        "import { userQueries, type UserRow } from '../users/index.js';\nexport const owner = (id: string): UserRow => userQueries.byId(id);\n",
      );
      put('apps/server/test/users.test.ts', "import { usersRepository } from '../src/modules/users/users.repository.js';\nexport const t = usersRepository;\n");
      expect(foreignRepositoryImports(root)).toEqual([]);

      put(
        'apps/server/src/modules/projects/projects.policy.ts',
        "import type { UserRow } from '../users/users.repository.js';\nexport const isOwner = (u: UserRow) => Boolean(u.id);\n",
      );
      put(
        'apps/server/src/modules/trash/trash.service.ts',
        "import { usersRepository } from '../users/users.repository.js';\nexport const t = () => import('../users/users.repository.js').then(() => usersRepository);\n",
      );
      const found = foreignRepositoryImports(root);
      expect(found.map((f) => `${f.file}:${f.line}`)).toEqual([
        'apps/server/src/modules/projects/projects.policy.ts:1',
        'apps/server/src/modules/trash/trash.service.ts:1',
        'apps/server/src/modules/trash/trash.service.ts:2',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("the server's folders outside training/, agents/ and exports/ import no other folder's repository", () => {
    // Those three are being restructured onto the other modules' index.ts (ADR 0033); the queries they need are exported there.
    const pending = /^apps\/server\/src\/modules\/(training|agents|exports)\//;
    expect(foreignRepositoryImports(repo).filter((f) => !pending.test(f.file))).toEqual([]);
  });
});
