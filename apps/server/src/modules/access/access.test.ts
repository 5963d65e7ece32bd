import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '@sightline/contracts';
import { openTestDatabase } from '../../../test/support/harness.js';
import type { Database } from '../../platform/db/client.js';
import { abilitiesOf, allows, viewerOf, type AccessItem, type Viewer } from './access.policy.js';
import { abilitiesFor, authorize, may, viewerFor } from './access.service.js';

const mine = (over: Partial<AccessItem> = {}): AccessItem => ({ kind: 'model', userId: 'owner', privacy: 'private', deletedAt: null, ...over });
const withRoles = (userId: string, roles: Record<string, 'owner' | 'admin' | 'member' | 'viewer'>): Viewer => ({
  userId,
  roles: new Map(Object.entries(roles)),
});

describe('access policy (pure)', () => {
  it('items of no team: the owner does everything, others read public/unlisted, list public, write nothing', () => {
    for (const a of ACTIONS) expect(allows(viewerOf('owner'), mine(), a)).toBe(true);
    for (const who of [viewerOf('other'), viewerOf(null)]) {
      expect(allows(who, mine(), 'read')).toBe(false);
      expect(allows(who, mine({ privacy: 'unlisted' }), 'read')).toBe(true);
      expect(allows(who, mine({ privacy: 'unlisted' }), 'list')).toBe(false);
      expect(allows(who, mine({ privacy: 'public' }), 'list')).toBe(true);
      expect(allows(who, mine({ privacy: 'public' }), 'update')).toBe(false);
      expect(abilitiesOf(who, mine({ privacy: 'public' }))).toEqual({ canEdit: false, canDelete: false, canShare: false });
    }
    expect(abilitiesOf(viewerOf('owner'), mine())).toEqual({ canEdit: true, canDelete: true, canShare: true });
  });

  it('deleted items: the owner still reads and restores them; nobody else even reads a public one', () => {
    const gone = mine({ privacy: 'public', deletedAt: new Date() });
    expect(allows(viewerOf('owner'), gone, 'read')).toBe(true);
    expect(allows(viewerOf('owner'), gone, 'restore')).toBe(true);
    expect(allows(viewerOf('other'), gone, 'read')).toBe(false);
  });

  it('models of a public or unlisted live project are readable, never writable, through it', () => {
    const model = mine({ parent: { kind: 'project', userId: 'owner', privacy: 'unlisted', deletedAt: null } });
    expect(allows(viewerOf('other'), model, 'read')).toBe(true);
    expect(allows(viewerOf('other'), model, 'predict')).toBe(true);
    expect(allows(viewerOf('other'), model, 'update')).toBe(false);
    expect(allows(viewerOf('other'), { ...model, parent: { ...model.parent!, deletedAt: new Date() } }, 'read')).toBe(false);
    expect(allows(viewerOf('other'), { ...model, deletedAt: new Date() }, 'read')).toBe(false);
  });

  it('team items follow the roles: admin all, member edits but cannot delete, viewer reads', () => {
    const item = mine({ teamId: 'T' });
    expect(allows(withRoles('a', { T: 'admin' }), item, 'delete')).toBe(true);
    expect(allows(withRoles('o', { T: 'owner' }), item, 'share')).toBe(true);
    expect(allows(withRoles('m', { T: 'member' }), item, 'update')).toBe(true);
    expect(allows(withRoles('m', { T: 'member' }), item, 'delete')).toBe(false);
    expect(allows(withRoles('v', { T: 'viewer' }), item, 'read')).toBe(true);
    expect(allows(withRoles('v', { T: 'viewer' }), item, 'train')).toBe(false);
    expect(allows(withRoles('x', { OTHER: 'admin' }), item, 'read')).toBe(false);
    // Trash of a team item: admins may restore it, members no longer see it.
    expect(allows(withRoles('a', { T: 'admin' }), { ...item, deletedAt: new Date() }, 'restore')).toBe(true);
    expect(allows(withRoles('m', { T: 'member' }), { ...item, deletedAt: new Date() }, 'read')).toBe(false);
    expect(abilitiesOf(withRoles('m', { T: 'member' }), item)).toEqual({ canEdit: true, canDelete: false, canShare: false });
  });
});

describe('access service (team roles from the database)', () => {
  let db: { database: Database; drop(): Promise<void> };
  beforeAll(async () => {
    db = await openTestDatabase();
    await db.database.exec(
      `INSERT INTO users (id, email, username, first_name, image) VALUES ('owner', 'o@x.io', 'o', 'O', ''), ('mem', 'm@x.io', 'm', 'M', ''), ('out', 'x@x.io', 'x', 'X', '')`,
    );
    await db.database.exec(`INSERT INTO teams (id, owner_id, name) VALUES ('T', 'owner', 'Team')`);
    await db.database.exec(`INSERT INTO team_members (team_id, user_id, role) VALUES ('T', 'owner', 'owner'), ('T', 'mem', 'member')`);
  });
  afterAll(async () => {
    await db.drop();
  });

  it("looks the caller's role up only for the teams of the items", async () => {
    const ctx = { db: db.database.db };
    expect((await viewerFor(ctx, 'mem', [mine({ teamId: 'T' })])).roles.get('T')).toBe('member');
    expect((await viewerFor(ctx, 'out', [mine({ teamId: 'T' })])).roles.size).toBe(0);
    expect(await may(ctx, 'mem', mine({ teamId: 'T' }), 'train')).toBe(true);
    expect(await may(ctx, 'mem', mine({ teamId: 'T' }), 'delete')).toBe(false);
    expect(await may(ctx, 'out', mine({ teamId: 'T' }), 'read')).toBe(false);
    expect(await abilitiesFor(ctx, 'mem', [mine({ teamId: 'T' }), mine()])).toEqual([
      { canEdit: true, canDelete: false, canShare: false },
      { canEdit: false, canDelete: false, canShare: false },
    ]);
  });

  it('authorize: 404 when not readable, 403 when readable but denied, 404 with hideDenied', async () => {
    const ctx = { db: db.database.db };
    const row = mine({ teamId: 'T' });
    const id = (r: AccessItem) => r;
    await expect(authorize(ctx, 'out', row, id, 'update', { name: 'Model' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(authorize(ctx, 'mem', row, id, 'delete', { name: 'Model', forbidden: 'no' })).rejects.toMatchObject({ statusCode: 403, message: 'no' });
    await expect(authorize(ctx, 'mem', row, id, 'delete', { name: 'Model', hideDenied: true })).rejects.toMatchObject({ statusCode: 404 });
    await expect(authorize(ctx, 'mem', row, id, 'update', { name: 'Model' })).resolves.toBe(row);
    await expect(authorize(ctx, 'mem', null, id, 'read', { name: 'Model' })).rejects.toMatchObject({ statusCode: 404, message: 'Model not found' });
  });
});
