import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { can, TEAM_ROLES, type Subject, type Team } from '@sightline/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import doc from '../../../../../../docs/spec-mapping.md?raw';
import teamsLocale from '../../../locales/en/teams.json';
import { makeUser, renderRoutes } from '../../../test/render';
import { TeamsTab } from './teams-tab';

/**
 * Consistency (docs/spec-mapping.md, "Team roles"): the table that maps the spec's team roles onto
 * the product's, the one permission matrix, and what the web app shows on a team card must agree.
 */
const section = doc.slice(doc.indexOf('## Team roles'));
const rows = section
  .split('\n')
  .filter((l) => /^\| (owner|admin|member|labeler|viewer|invited) \|/.test(l))
  .map((l) => {
    const cells = l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const yes = (i: number) => {
      expect(['yes', 'no']).toContain(cells[i]);
      return cells[i] === 'yes';
    };
    return { role: cells[0]!, spec: cells[1]!, edit: yes(2), delete: yes(3), invite: yes(4), addItems: yes(5), join: yes(6) };
  });

const SUBJECT: Record<string, Subject> = {
  owner: 'owner',
  admin: 'teamAdmin',
  member: 'teamMember',
  labeler: 'teamLabeler',
  viewer: 'teamViewer',
  invited: 'user',
};

function teamAs(role: string): Team {
  const subject = SUBJECT[role]!;
  const invited = role === 'invited';
  return {
    id: `TeAm${role.padEnd(16, 'x')}`.slice(0, 20),
    dates: { created: '2026-11-01T00:00:00Z', updated: '2026-11-01T00:00:00Z' },
    meta: { name: `Crew ${role}`, description: '', image: null },
    owner: { uid: 'u1', username: 'alice' },
    membersCount: 3,
    invited,
    role: invited ? null : (role as Team['role']),
    invite: invited ? { id: 'inv', role: 'member', expiresAt: '2026-12-01T00:00:00Z' } : null,
    // What the server sends: teams.policy.ts reads each of these off the same matrix.
    abilities: {
      canEdit: can(subject, 'team', 'team', 'update'),
      canDelete: can(subject, 'team', 'team', 'delete'),
      canShare: can(subject, 'team', 'team', 'share'),
      canInvite: can(subject, 'team', 'team', 'invite'),
      canRemove: can(subject, 'team', 'team', 'remove'),
      canAddItems: !invited && role !== 'viewer' && role !== 'labeler',
      canLeave: !invited && role !== 'owner',
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

describe('team roles: the documented mapping, the permission matrix and the web app agree', () => {
  it('documents every product role, and the web app labels exactly those', () => {
    expect(rows.map((r) => r.role)).toEqual([...TEAM_ROLES, 'invited']);
    expect(Object.keys(teamsLocale.roles).sort()).toEqual([...TEAM_ROLES].sort());
    // The spec's two roles are the owner and member rows.
    expect(rows.find((r) => r.role === 'owner')!.spec).toBe('admin (creator)');
    expect(rows.find((r) => r.role === 'member')!.spec).toBe('member (default invite role)');
  });

  it('matches the matrix: who may edit, delete, invite and work on team items', () => {
    for (const r of rows) {
      const subject = SUBJECT[r.role]!;
      expect({
        role: r.role,
        edit: can(subject, 'team', 'team', 'update'),
        delete: can(subject, 'team', 'team', 'delete'),
        invite: can(subject, 'team', 'team', 'invite'),
        addItems: can(subject, 'project', 'team', 'update'),
      }).toEqual({
        role: r.role,
        edit: r.edit,
        delete: r.delete,
        invite: r.invite,
        addItems: r.addItems,
      });
    }
  });

  it.each(rows.map((r) => [r.role, r] as const))(
    'shows on the team card of a %s exactly what the table says: Edit, Delete, Join',
    async (_role, r) => {
      const team = teamAs(r.role);
      vi.stubGlobal(
        'fetch',
        vi.fn(
          async (url: string) =>
            new Response(JSON.stringify({ data: url.endsWith('/v1/teams/creation') ? { allowed: true, reason: null } : [team] }), { status: 200 }),
        ),
      );
      renderRoutes([{ path: '/settings', element: <TeamsTab /> }], { path: '/settings', user: makeUser({ plan: 'pro' }) });
      const card = await screen.findByTestId('team-card');
      const menu = within(card).queryByTestId('team-menu');
      expect(Boolean(menu), `${r.role} sees the menu`).toBe(r.edit || r.delete);
      if (menu) {
        fireEvent.click(menu);
        const shown = await screen.findAllByRole('menuitem');
        expect(
          shown.map((item) => item.textContent?.trim()),
          `${r.role} sees`,
        ).toEqual([...(r.edit ? ['Edit'] : []), ...(r.delete ? ['Delete'] : [])]);
      }
      expect(Boolean(within(card).queryByRole('button', { name: 'Join' })), `${r.role} sees Join`).toBe(r.join);
    },
    20_000,
  );
});
