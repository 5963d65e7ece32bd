import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { teamsRepository as repo } from './teams.repository.js';

/**
 * Realtime for teams (ADR 0031): the team's topic hears every change of its record and membership;
 * a member's own topic hears that they joined, left or were invited (their lists refetch).
 */
export function registerTeamsListeners(ctx: AppContext) {
  const on = ctx.events.on.bind(ctx.events);
  const teamUpdated = (teamId: string) => ctx.bus.publish(topics.team(teamId), 'team.updated', { id: teamId });
  const joined = (teamId: string, uid: string) => ctx.bus.publish(topics.user(uid), 'team.joined', { id: teamId, uid });
  /** The leaver's lists drop the team's items at once: one event on their own topic, the client refetches. */
  const left = async (teamId: string, uid: string) => {
    await ctx.bus.publish(topics.user(uid), 'team.left', { id: teamId, uid });
    await teamUpdated(teamId);
  };

  on('team.created', (e) => ctx.bus.publish(topics.user(e.data.actorId), 'team.created', { id: e.data.teamId }));
  on('team.updated', (e) => teamUpdated(e.data.teamId));
  on('team.imageChanged', (e) => teamUpdated(e.data.teamId));
  on('team.deleted', async (e) => {
    await ctx.bus.publish(topics.team(e.data.teamId), 'team.deleted', { id: e.data.teamId });
    for (const uid of e.data.memberIds) await ctx.bus.publish(topics.user(uid), 'team.left', { id: e.data.teamId, uid });
  });
  on('team.inviteSent', async (e) => {
    const { teamId, teamName, inviteId, inviteeId } = e.data;
    if (inviteeId) await ctx.bus.publish(topics.user(inviteeId), 'team.invited', { id: teamId, name: teamName, inviteId });
    await teamUpdated(teamId);
  });
  on('team.inviteAccepted', async (e) => {
    await joined(e.data.teamId, e.data.actorId);
    await teamUpdated(e.data.teamId);
  });
  on('team.inviteRejected', (e) => left(e.data.teamId, e.data.actorId));
  on('team.inviteCancelled', async (e) => {
    if (e.data.inviteeId) await ctx.bus.publish(topics.user(e.data.inviteeId), 'team.left', { id: e.data.teamId, uid: e.data.inviteeId });
    await teamUpdated(e.data.teamId);
  });
  on('team.memberRemoved', (e) => left(e.data.teamId, e.data.memberId));
  on('team.memberLeft', (e) => left(e.data.teamId, e.data.actorId));
  const roleChanged = async (e: { data: { teamId: string; memberId: string } }) => {
    await joined(e.data.teamId, e.data.memberId);
    await teamUpdated(e.data.teamId);
  };
  on('team.ownershipTransferred', roleChanged);
  on('team.memberRoleChanged', roleChanged);
  /** Every member's lists change when an item enters or leaves the team. */
  const itemsChanged = async (e: { data: { teamId: string; kind: string; itemId: string; modelIds: string[] } }) => {
    const { teamId, kind, itemId, modelIds } = e.data;
    for (const uid of await repo.memberIds(ctx.db, teamId)) await joined(teamId, uid);
    if (kind === 'project') await ctx.bus.publish(topics.project(itemId), 'project.updated', { id: itemId });
    for (const id of modelIds) await ctx.bus.publish(topics.model(id), 'model.updated', { id, projectId: itemId });
    await teamUpdated(teamId);
  };
  on('team.itemAdded', itemsChanged);
  on('team.itemRemoved', itemsChanged);
}
