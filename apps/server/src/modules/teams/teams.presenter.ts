import type { Team, TeamAbilities, TeamInvite, TeamMember, TeamMemberRole } from '@sightline/contracts';
import type { TeamInviteRow, TeamRow } from './teams.repository.js';

export function presentTeam(
  row: TeamRow,
  extra: {
    ownerUsername: string;
    membersCount: number;
    role: TeamMemberRole | null;
    invite: TeamInviteRow | null;
    abilities: TeamAbilities;
    /** the team image's short link, bound to the team's life */ imageUrl: string | null;
  },
): Team {
  return {
    id: row.id,
    dates: { created: row.createdAt.toISOString(), updated: row.updatedAt.toISOString() },
    meta: {
      name: row.name,
      description: row.description,
      image: row.imagePath && extra.imageUrl ? { path: row.imagePath, url: extra.imageUrl } : null,
    },
    owner: { uid: row.ownerId, username: extra.ownerUsername },
    membersCount: extra.membersCount,
    invited: !extra.role && extra.invite !== null,
    role: extra.role,
    invite: !extra.role && extra.invite ? { id: extra.invite.id, role: extra.invite.role, expiresAt: extra.invite.expiresAt.toISOString() } : null,
    abilities: extra.abilities,
  };
}

export function presentMember(m: {
  uid: string;
  role: TeamMemberRole;
  joinedAt: Date;
  username: string;
  email: string;
  firstName: string;
  lastName: string | null;
}): TeamMember {
  return {
    uid: m.uid,
    username: m.username,
    email: m.email,
    name: [m.firstName, m.lastName].filter(Boolean).join(' '),
    role: m.role,
    joinedAt: m.joinedAt.toISOString(),
  };
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
