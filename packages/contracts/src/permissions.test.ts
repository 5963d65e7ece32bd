import { describe, expect, it } from 'vitest';
import { abilitiesFor, ACTIONS, can, canOnPersonal, OBJECT_KINDS, PERMISSIONS, SUBJECTS, subjectForRole, VISIBILITIES, visibilityOf } from './permissions.js';

const ITEMS = ['dataset', 'project', 'model'] as const;
const WRITES = ['update', 'share', 'move', 'transfer', 'delete', 'restore', 'train', 'export', 'invite', 'remove'] as const;

describe('permission matrix (spec §6, ADR 0011)', () => {
  it('covers every subject × kind × visibility with known actions only', () => {
    for (const s of SUBJECTS)
      for (const k of OBJECT_KINDS)
        for (const v of VISIBILITIES) {
          for (const a of PERMISSIONS[s][k][v]) expect(ACTIONS).toContain(a);
        }
  });

  it('owners do everything', () => {
    for (const k of OBJECT_KINDS) for (const v of VISIBILITIES) for (const a of ACTIONS) expect(can('owner', k, v, a)).toBe(true);
  });

  it('other users read public and unlisted items, list only public ones, and write nothing', () => {
    for (const s of ['user', 'anonymous'] as const)
      for (const k of ITEMS) {
        expect(can(s, k, 'public', 'read')).toBe(true);
        expect(can(s, k, 'public', 'list')).toBe(true);
        expect(can(s, k, 'unlisted', 'read')).toBe(true);
        expect(can(s, k, 'unlisted', 'list')).toBe(false);
        expect(can(s, k, 'public', 'predict')).toBe(true);
        expect(can(s, k, 'public', 'download')).toBe(true);
        for (const v of ['private', 'team'] as const) for (const a of ACTIONS) expect(can(s, k, v, a)).toBe(false);
        for (const v of VISIBILITIES) for (const a of WRITES) expect(can(s, k, v, a)).toBe(false);
      }
  });

  it('team admins do everything with team items; members edit, train and export but neither share nor delete; viewers read', () => {
    for (const k of ITEMS) {
      for (const a of ['read', 'list', 'update', 'share', 'delete', 'restore', 'train', 'export', 'predict', 'download'] as const)
        expect(can('teamAdmin', k, 'team', a)).toBe(true);
      for (const a of ['read', 'list', 'update', 'train', 'export', 'predict', 'download'] as const) expect(can('teamMember', k, 'team', a)).toBe(true);
      for (const a of ['share', 'delete', 'restore'] as const) expect(can('teamMember', k, 'team', a)).toBe(false);
      for (const a of ['read', 'list', 'predict', 'download'] as const) expect(can('teamViewer', k, 'team', a)).toBe(true);
      for (const a of ['update', 'share', 'delete', 'restore', 'train', 'export'] as const) expect(can('teamViewer', k, 'team', a)).toBe(false);
      // Team rights do not shrink when the team item is made public.
      expect(can('teamMember', k, 'public', 'update')).toBe(true);
      // A private item has no team: team subjects get nothing from it.
      for (const s of ['teamAdmin', 'teamMember', 'teamViewer'] as const) for (const a of ACTIONS) expect(can(s, k, 'private', a)).toBe(false);
    }
  });

  it('on a team: admins invite and remove but only the owner deletes; members and viewers read', () => {
    expect(can('teamAdmin', 'team', 'team', 'invite')).toBe(true);
    expect(can('teamAdmin', 'team', 'team', 'remove')).toBe(true);
    expect(can('teamAdmin', 'team', 'team', 'update')).toBe(true);
    expect(can('teamAdmin', 'team', 'team', 'delete')).toBe(false);
    expect(can('owner', 'team', 'team', 'delete')).toBe(true);
    for (const s of ['teamMember', 'teamViewer'] as const) {
      expect(can(s, 'team', 'team', 'read')).toBe(true);
      for (const a of ['update', 'invite', 'remove', 'delete'] as const) expect(can(s, 'team', 'team', a)).toBe(false);
    }
    for (const s of ['user', 'anonymous'] as const) expect(can(s, 'team', 'team', 'read')).toBe(false);
  });

  it("where an item lives (ADR 0023): share and move are the owner's or a team admin's, transfer the owner's only", () => {
    for (const k of ITEMS)
      for (const v of ['team', 'unlisted', 'public'] as const) {
        expect(can('teamAdmin', k, v, 'share')).toBe(true);
        expect(can('teamAdmin', k, v, 'move')).toBe(true);
        expect(can('teamAdmin', k, v, 'transfer')).toBe(false);
        for (const s of ['teamMember', 'teamViewer', 'user', 'anonymous'] as const)
          for (const a of ['share', 'move', 'transfer'] as const) expect(can(s, k, v, a)).toBe(false);
      }
    // Handing a team over: its owner only.
    expect(can('owner', 'team', 'team', 'transfer')).toBe(true);
    for (const s of ['teamAdmin', 'teamMember', 'teamViewer'] as const) expect(can(s, 'team', 'team', 'transfer')).toBe(false);
  });

  it('labelers (ADR 0039) label and read team datasets, read team projects and models, and change nothing else', () => {
    expect(subjectForRole('labeler', 'dataset')).toBe('teamLabeler');
    for (const v of ['team', 'unlisted', 'public'] as const) {
      for (const a of ['read', 'list', 'label', 'predict', 'download'] as const) expect(can('teamLabeler', 'dataset', v, a)).toBe(true);
      for (const a of WRITES) expect(can('teamLabeler', 'dataset', v, a)).toBe(false);
      for (const k of ['project', 'model'] as const) for (const a of ACTIONS) expect(can('teamLabeler', k, v, a)).toBe(can('teamViewer', k, v, a));
    }
    // Who else labels: the owner, team admins and members; never viewers or others.
    for (const s of ['owner', 'teamAdmin', 'teamMember'] as const) expect(can(s, 'dataset', 'team', 'label')).toBe(true);
    for (const s of ['teamViewer', 'user', 'anonymous'] as const) for (const v of VISIBILITIES) expect(can(s, 'dataset', v, 'label')).toBe(false);
  });

  it('visibility: a private item of a team is `team`', () => {
    expect(visibilityOf('private', 'T')).toBe('team');
    expect(visibilityOf('private', null)).toBe('private');
    expect(visibilityOf('public', 'T')).toBe('public');
    expect(visibilityOf('unlisted', undefined)).toBe('unlisted');
  });

  it('team roles map to subjects; the team owner is `owner` only of the team itself', () => {
    expect(subjectForRole('owner', 'team')).toBe('owner');
    expect(subjectForRole('owner', 'model')).toBe('teamAdmin');
    expect(subjectForRole('admin', 'dataset')).toBe('teamAdmin');
    expect(subjectForRole('member', 'project')).toBe('teamMember');
    expect(subjectForRole('viewer', 'team')).toBe('teamViewer');
  });

  it("abilities keep today's shape: owners all true, others all false", () => {
    expect(abilitiesFor('owner', 'model', 'private')).toEqual({ canEdit: true, canDelete: true, canShare: true });
    expect(abilitiesFor('user', 'model', 'public')).toEqual({ canEdit: false, canDelete: false, canShare: false });
    expect(abilitiesFor('teamMember', 'dataset', 'team')).toEqual({ canEdit: true, canDelete: false, canShare: false });
    expect(abilitiesFor('teamAdmin', 'project', 'team')).toEqual({ canEdit: true, canDelete: true, canShare: true });
  });
});

describe('personal records (ADR 0028)', () => {
  it('only the recipient reads, lists and marks a notification; nobody else does anything', () => {
    expect(['read', 'list', 'update'].every((a) => canOnPersonal('notification', true, a as (typeof ACTIONS)[number]))).toBe(true);
    expect(canOnPersonal('notification', true, 'delete')).toBe(false);
    for (const a of ACTIONS) expect(canOnPersonal('notification', false, a)).toBe(false);
  });
});
