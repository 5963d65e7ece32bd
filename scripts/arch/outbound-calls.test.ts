/**
 * The "bus.publish/track outside listeners" measure of arch:check (ADR 0031) fails on planted
 * violations and holds on the repository tree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles } from './arch-check.js';
import { checkOutboundCalls, outboundCount, printOutbound } from './outbound-calls.js';

const repo = path.resolve(import.meta.dirname, '../..');
let root: string;
const put = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
const measure = (unconverted: string[] = []) => checkOutboundCalls(root, listFiles(path.join(root, 'apps/server/src')), unconverted);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arch-outbound-'));
  put('apps/server/src/modules/analytics/analytics.service.ts', 'export async function track(..._a: unknown[]) {}\n');
  put(
    'apps/server/src/platform/realtime/event-bus.ts',
    'export class EventBus { async publish(..._a: unknown[]) {} relay(b: EventBus) { return b.publish(1); } }\n',
  );
  put(
    'apps/server/src/modules/users/users.service.ts',
    "export async function rename(ctx: any) {\n  await ctx.events.emit('user.profileUpdated', 'u', {});\n}\n",
  );
  put(
    'apps/server/src/modules/users/users.listeners.ts',
    "import { track } from '../analytics/analytics.service.js';\nexport function registerUsersListeners(ctx: any) {\n  ctx.events.on('user.profileUpdated', async () => {\n    await track(ctx, 'u', 'update_profile');\n    await ctx.bus.publish('user:u', 'user.updated', {});\n  });\n}\n",
  );
  put('apps/server/test/users.test.ts', "export const t = (ctx: any) => ctx.bus.publish('user:u', 'user.updated', {});\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('bus.publish/track outside listeners', () => {
  it('counts nothing when only listeners, the bus and analytics internals call them', () => {
    const r = measure();
    expect(outboundCount(r)).toBe(0);
    expect(printOutbound(r)).toMatch(/^bus\.publish\/track outside listeners\s+0$/);
  });

  it('counts a service that publishes or tracks by hand, each call with its line', () => {
    put(
      'apps/server/src/modules/users/users.service.ts',
      "import { track } from '../analytics/analytics.service.js';\nexport async function rename(ctx: any) {\n  await track(ctx, 'u', 'update_profile');\n  await this_.ctx.bus.publish('user:u', 'user.updated', {});\n}\ndeclare const this_: any;\n",
    );
    put('apps/server/src/modules/auth/auth.routes.ts', 'export const r = (analytics: any, bus: any) => [analytics.track(1), bus.publish(2)];\n');
    const r = measure();
    expect(outboundCount(r)).toBe(4);
    expect(r.outsideListeners.map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([
      'apps/server/src/modules/auth/auth.routes.ts:1 analytics.track(…)',
      'apps/server/src/modules/auth/auth.routes.ts:1 bus.publish(…)',
      'apps/server/src/modules/users/users.service.ts:3 track(…)',
      'apps/server/src/modules/users/users.service.ts:4 this_.ctx.bus.publish(…)',
    ]);
    expect(printOutbound(r)).toContain('apps/server/src/modules/users/users.service.ts:4  this_.ctx.bus.publish(…)');
  });

  it('reports the temporarily allowed files without failing, and fails on an entry with nothing left to convert', () => {
    put('apps/server/src/modules/training/training.service.ts', "export const p = (ctx: any) => ctx.bus.publish('model:m', 'model.updated', {});\n");
    const allowed = measure(['apps/server/src/modules/training/training.service.ts']);
    expect(outboundCount(allowed)).toBe(0);
    expect(allowed.unconverted).toHaveLength(1);
    expect(printOutbound(allowed)).toContain('temporarily allowed (UNCONVERTED_FILES): 1 calls in 1 files');

    const stale = measure(['apps/server/src/modules/training/training.service.ts', 'apps/server/src/modules/exports/exports.service.ts']);
    expect(stale.staleEntries).toEqual(['apps/server/src/modules/exports/exports.service.ts']);
    expect(outboundCount(stale)).toBe(1);
  });

  it('holds on the repository tree (only the allow-listed files still call them)', () => {
    const r = checkOutboundCalls(repo, listFiles(path.join(repo, 'apps/server/src')));
    expect(r.outsideListeners).toEqual([]);
    expect(r.staleEntries).toEqual([]);
  });
});
