import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLocales, leafKeys, unusedKeys } from './locale-keys';

/** The unused-locale-keys check of `npm run lint` proves itself on planted keys, then on the real files. */
describe('locale keys', () => {
  const keys = leafKeys({
    plan: { title: 'Plan', renews: 'x' },
    plans: { free: 'Free', pro: 'Pro' },
    count_one: '1',
    count_other: 'n',
    codes: { a_b: 'x' },
    dead: { soon: 'Coming soon' },
  }).map((key) => ({ ns: 'billing', key }));

  it('counts literals, namespaced literals, template starts and plural forms as uses; reports the rest', () => {
    const source = "t('plan.title'); t('billing:plan.renews'); t(`plans.${p}`); t('count', { count: 2 });";
    expect(unusedKeys(keys, [source], []).map((k) => k.key)).toEqual(['codes.a_b', 'dead.soon']);
  });

  it('a declared run-time prefix is allowed; a template start of another namespace is not a use', () => {
    const source = "t('plan.title'); t('plan.renews'); t(`other:plans.${p}`); t('count')";
    expect(unusedKeys(keys, [source], [{ prefix: 'billing:codes.', why: 'built from error codes' }]).map((k) => k.key)).toEqual([
      'plans.free',
      'plans.pro',
      'dead.soon',
    ]);
  });

  it('the web app has no unused locale key', () => {
    expect(checkLocales(path.resolve(import.meta.dirname, '../../apps/web/src'))).toEqual([]);
  });
});
