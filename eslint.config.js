import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const root = import.meta.dirname;
/** Where the guarded tree is (the guard tests point it at a planted copy of the layout). */
const base = process.env.ARCH_ROOT ?? root;
const server = 'apps/server/src';
const features = 'apps/web/src/features';

/**
 * Architecture guards (docs/ARCHITECTURE.md, "Where does X go"). Each guard is 'error' once the
 * tree is clean of it; a guard still listed in PENDING is off in `npm run lint` until the code
 * it names is moved, and on with ARCH_GUARDS=all (`npm run arch:check`, the guard tests).
 */
const PENDING = new Set([]);
const guard = (name) => (process.env.ARCH_GUARDS === 'all' || !PENDING.has(name) ? 'error' : 'off');

const schemaFiles = [`${server}/platform/db/schema.ts`, `${server}/platform/db/schema`];
const drizzle = {
  patterns: [{ group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Routes and compat adapters call a service; SQL lives in <module>.repository.ts.' }],
};

/** Web features talk to each other only through the other feature's public index.ts. */
function featureZones() {
  const dir = path.join(base, features);
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
  return names.flatMap((target) =>
    names
      .filter((from) => from !== target)
      .map((from) => ({
        target: `./${features}/${target}`,
        from: `./${features}/${from}`,
        except: ['./index.ts'],
        message: `features/${target} may use features/${from} only through its public index.ts.`,
      })),
  );
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/test-results/**', 'e2e/playwright-report/**', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },

  // ---- architecture guards -------------------------------------------------------------------
  // One plugin instance per guard, so a report names the guard that fired (arch-routes/..., ...).
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'arch-routes': importX, 'arch-platform': importX, 'arch-modules': importX, 'arch-features': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'packages/contracts/tsconfig.json'].map((p) => path.join(root, p)),
        }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
  {
    // Routes and compat adapters: schema → auth → one service call → presenter. No SQL.
    files: [`${server}/**/*.routes.ts`, `${server}/compat/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [guard('routes-no-db'), drizzle],
      'arch-routes/no-restricted-paths': [
        guard('routes-no-db'),
        { basePath: base, zones: [{ target: './', from: schemaFiles.map((f) => `./${f}`), message: 'Only repositories (and migrations) import the schema.' }] },
      ],
    },
  },
  {
    files: [`${server}/platform/**/*.ts`],
    rules: {
      'arch-platform/no-restricted-paths': [
        guard('platform-no-modules'),
        {
          basePath: base,
          zones: [
            {
              target: `./${server}/platform`,
              from: [`./${server}/modules`, `./${server}/compat`],
              message: 'platform/ is infrastructure: it imports no module; modules register with it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [`${server}/modules/**/*.ts`],
    rules: {
      'arch-modules/no-restricted-paths': [
        guard('modules-no-compat'),
        {
          basePath: base,
          zones: [
            { target: `./${server}/modules`, from: `./${server}/compat`, message: 'Modules do not know the client protocols; compat adapters call modules.' },
          ],
        },
      ],
    },
  },
  {
    files: [`${server}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-cycle': [guard('no-cycle-server'), { ignoreExternal: true }] },
  },
  {
    // Realtime topics are built by the contract's `topics.*`, never spelled by hand.
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        guard('topic-builders'),
        {
          selector:
            "CallExpression[callee.property.name=/^(publish|subscribe)$/] > TemplateLiteral, CallExpression[callee.name='useTopic'] > TemplateLiteral, CallExpression[callee.name='useTopic'] > ConditionalExpression > TemplateLiteral",
          message: 'Build realtime topics with topics.* from @sightline/contracts.',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-cycle': [guard('no-cycle-web'), { ignoreExternal: true }],
      'arch-features/no-restricted-paths': featureZones().length ? [guard('feature-public-index'), { basePath: base, zones: featureZones() }] : 'off',
    },
  },
);
