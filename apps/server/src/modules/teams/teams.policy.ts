import { isPaidPlan, type TeamAbilities, type TeamCreation, type TeamMemberRole } from '@sightline/contracts';
import { allows, type AccessItem, type Viewer } from '../access/index.js';
import type { TeamRow } from './teams.repository.js';

/** A team as the one permission matrix sees it: its owner, and itself as the team (visibility `team`). */
export const teamItem = (team: TeamRow): AccessItem => ({
  kind: 'team',
  id: team.id,
  userId: team.ownerId,
  teamId: team.id,
  privacy: 'private',
  deletedAt: team.deletedAt,
});

export const teamViewer = (userId: string, team: TeamRow, role: TeamMemberRole | null | undefined): Viewer => ({
  userId,
  roles: role ? new Map([[team.id, role]]) : new Map(),
});

/** Abilities for the team card and page, all read off the matrix. */
export function teamAbilities(viewer: Viewer, team: TeamRow): TeamAbilities {
  const item = teamItem(team);
  const role = viewer.roles.get(team.id);
  const member = Boolean(role) || team.ownerId === viewer.userId;
  return {
    canEdit: allows(viewer, item, 'update'),
    canDelete: allows(viewer, item, 'delete'),
    canShare: allows(viewer, item, 'share'),
    canInvite: allows(viewer, item, 'invite'),
    canRemove: allows(viewer, item, 'remove'),
    // Putting work into a team is writing to it: members and above; viewers only read.
    canAddItems: member && role !== 'viewer' && role !== 'labeler',
    // The owner hands the team over before leaving (the last admin cannot leave).
    canLeave: member && team.ownerId !== viewer.userId,
  };
}

/** Creating a team needs a pro or enterprise plan and the `teamsCollaboration` flag (spec §1, §9). */
export function teamCreation(plan: string, flagEnabled: boolean): TeamCreation {
  if (!flagEnabled) return { allowed: false, reason: 'flag' };
  if (!isPaidPlan(plan)) return { allowed: false, reason: 'plan' };
  return { allowed: true, reason: null };
}
