import type { Team, TeamAbilities, TeamInvite, TeamMember, TeamMemberRole } from '@sightline/contracts';
import { signBlobUrl } from '../../platform/storage/signed-url.js';
import type { TeamInviteRow, TeamRow } from './teams.repository.js';

const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');

export function presentTeam(
  row: TeamRow,
  extra: { ownerUsername: string; membersCount: number; role: TeamMemberRole | null; invite: TeamInviteRow | null; abilities: TeamAbilities; secret: string },
): Team {
  return {
    id: row.id,
    dates: { created: row.createdAt.toISOString(), updated: row.updatedAt.toISOString() },
    meta: {
      name: row.name,
      description: row.description,
      image: row.imagePath ? { path: row.imagePath, url: signBlobUrl({ key: row.imagePath, expiresAt: FAR_FUTURE, secret: extra.secret, baseUrl: '' }) } : null,
    },
    owner: { uid: row.ownerId, username: extra.ownerUsername },
    membersCount: extra.membersCount,
    invited: !extra.role && extra.invite !== null,
    role: extra.role,
    invite: !extra.role && extra.invite ? { id: extra.invite.id, role: extra.invite.role, expiresAt: extra.invite.expiresAt.toISOString() } : null,
    abilities: extra.abilities,
  };
}

export function presentMember(m: { uid: string; role: TeamMemberRole; joinedAt: Date; username: string; email: string; firstName: string; lastName: string | null }): TeamMember {
  return { uid: m.uid, username: m.username, email: m.email, name: [m.firstName, m.lastName].filter(Boolean).join(' '), role: m.role, joinedAt: m.joinedAt.toISOString() };
}

export function presentInvite(row: TeamInviteRow, team: { id: string; name: string }, invitedBy: { uid: string; username: string }): TeamInvite {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    parent: { collection: 'teams', id: team.id, name: team.name },
    invitedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}
