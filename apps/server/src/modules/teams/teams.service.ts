import { randomInt } from 'node:crypto';
import {
  ErrorCode,
  TEAM_INVITE_TTL_MS,
  TEAM_NAME_MAX,
  type Action,
  type InviteRole,
  type Team,
  type TeamItemKind,
  type TeamMemberRole,
} from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId, newToken, sha256 } from '../../platform/ids.js';
import { sign, verify } from '../../platform/security/signing.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { authorize, shortBlobUrl, teamLinkVersionOf } from '../access/index.js';
import { isEnabled } from '../flags/flags.service.js';
import { notifyInvite } from '../notifications/notifications.service.js';
import { inviteLink, sendInviteMail } from './teams.mail.js';
import { teamAbilities, teamCreation, teamItem, teamViewer } from './teams.policy.js';
import { presentInvite, presentMember, presentTeam } from './teams.presenter.js';
import { teamsRepository as repo, type TeamInviteRow, type TeamRow } from './teams.repository.js';

export interface Caller {
  id: string;
  email: string;
  plan: string;
}

const ADJECTIVES = ['Bright', 'Swift', 'Quiet', 'Bold', 'Clever', 'Keen', 'Lucky', 'Sharp', 'Steady', 'Sunny'];
const NOUNS = ['Falcons', 'Otters', 'Foxes', 'Herons', 'Lynxes', 'Owls', 'Pandas', 'Ravens', 'Tigers', 'Wolves'];
/** The generated name of a team created with a blank name (spec §5). */
export const generatedTeamName = () => `${ADJECTIVES[randomInt(ADJECTIVES.length)]} ${NOUNS[randomInt(NOUNS.length)]}`.slice(0, TEAM_NAME_MAX);

const notFound = () => errors.notFound('Team');

export async function callerById(ctx: AppContext, uid: string): Promise<Caller | null> {
  const user = await repo.userById(ctx.db, uid);
  return user && !user.deletedAt ? { id: user.id, email: user.email, plan: user.plan } : null;
}

/** Is team creation open to this caller, and if not, why (the web app shows the reason). */
export async function creationFor(ctx: AppContext, caller: Caller) {
  return teamCreation(caller.plan, await isEnabled(ctx, 'teamsCollaboration'));
}

export async function createTeam(ctx: AppContext, caller: Caller, input: { name?: string; description?: string }) {
  const creation = await creationFor(ctx, caller);
  if (creation.reason === 'flag') throw new AppError(403, ErrorCode.TeamsDisabled, 'Teams are turned off on this server');
  if (creation.reason === 'plan') throw new AppError(403, ErrorCode.TeamPlanRequired, 'Teams are available on the Pro and Enterprise plans');
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const team = await repo.insert(tx, {
      id: newId(),
      ownerId: caller.id,
      name: input.name?.trim() || generatedTeamName(),
      description: input.description?.trim() ?? '',
      createdAt: now,
      updatedAt: now,
    });
    await repo.addMember(tx, { teamId: team.id, userId: caller.id, role: 'owner', joinedAt: now });
    return team;
  });
  await ctx.events.emit('team.created', row.ownerId, { teamId: row.id, actorId: caller.id });
  return row;
}

/** The team with the caller's role and pending invite; 404 unless the caller is a member or invited. */
export async function visibleTeam(ctx: AppContext, caller: Caller, id: string) {
  const team = await repo.byId(ctx.db, id);
  if (!team) throw notFound();
  const role = (await repo.rolesOf(ctx.db, caller.id, [id])).get(id) ?? null;
  const invite = role ? null : await pendingInviteOf(ctx, team.id, caller.email);
  if (!role && !invite) throw notFound();
  return { team, role, invite };
}

/** Loads the team and checks one action of the matrix for the caller (404 for outsiders, else 403). */
async function authorizedTeam(ctx: AppContext, userId: string, id: string, action: Action, forbidden: string) {
  return authorize(ctx, userId, await repo.byId(ctx.db, id), teamItem, action, { name: 'Team', forbidden });
}

async function pendingInviteOf(ctx: AppContext, teamId: string, email: string) {
  const invite = await repo.openInviteFor(ctx.db, teamId, email);
  return invite && invite.expiresAt > ctx.clock.now() ? invite : null;
}

export async function presentTeams(ctx: AppContext, caller: Caller, rows: TeamRow[]): Promise<Team[]> {
  const ids = rows.map((r) => r.id);
  const [counts, roles, owners, invites] = await Promise.all([
    repo.memberCounts(ctx.db, ids),
    repo.rolesOf(ctx.db, caller.id, ids),
    repo.usernames(ctx.db, [...new Set(rows.map((r) => r.ownerId))]),
    repo.pendingInvitesFor(ctx.db, caller.email, ctx.clock.now()),
  ]);
  return rows.map((row) => {
    const role = roles.get(row.id) ?? null;
    return presentTeam(row, {
      ownerUsername: owners.get(row.ownerId) ?? '',
      membersCount: counts.get(row.id) ?? 0,
      role,
      invite: invites.find((i) => i.teamId === row.id) ?? null,
      abilities: teamAbilities(teamViewer(caller.id, row, role), row),
      imageUrl: row.imagePath ? shortBlobUrl(ctx, row.imagePath, teamLinkVersionOf(row)) : null,
    });
  });
}

export async function listTeams(ctx: AppContext, caller: Caller) {
  return repo.listFor(ctx.db, caller.id, caller.email, ctx.clock.now());
}

export async function updateTeam(ctx: AppContext, caller: Caller, id: string, patch: { name?: string; description?: string }) {
  await authorizedTeam(ctx, caller.id, id, 'update', 'Only team owners and admins can edit the team');
  const name = patch.name === undefined ? undefined : patch.name.trim() || generatedTeamName();
  const row = await repo.update(ctx.db, id, { name, description: patch.description?.trim(), updatedAt: ctx.clock.now() });
  await ctx.events.emit('team.updated', row!.ownerId, { teamId: id, actorId: caller.id });
  return row!;
}

/** The team image through the image-only drop zone, stored at users/{uid}/teams/{id}. */
export async function setTeamImage(ctx: AppContext, caller: Caller, id: string, image: { bytes: Buffer; contentType: string }) {
  await authorizedTeam(ctx, caller.id, id, 'update', 'Only team owners and admins can edit the team');
  const key = blobKeys.teamImage(caller.id, id);
  await ctx.blobs.put(key, image.bytes, { contentType: image.contentType });
  const row = await repo.update(ctx.db, id, { imagePath: key, imageBytes: image.bytes.length, updatedAt: ctx.clock.now() });
  await ctx.events.emit('team.imageChanged', row!.ownerId, { teamId: id, actorId: caller.id });
  return row!;
}

/** Only the owner deletes; members lose access at once and items go back to their owners. */
export async function deleteTeam(ctx: AppContext, caller: Caller, id: string) {
  const team = await authorizedTeam(ctx, caller.id, id, 'delete', 'Only the team owner can delete the team');
  const memberIds = await repo.memberIds(ctx.db, id);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await repo.releaseItems(tx, id, now);
    await repo.cancelAllInvites(tx, id, now);
    await repo.update(tx, id, { deletedAt: now, updatedAt: now });
    await ctx.events.emit('team.deleted', team.ownerId, { teamId: team.id, actorId: caller.id, memberIds });
  });
}

export async function listMembers(ctx: AppContext, caller: Caller, id: string) {
  await authorizedTeam(ctx, caller.id, id, 'read', '');
  return (await repo.members(ctx.db, id)).map(presentMember);
}

export async function listInvites(ctx: AppContext, caller: Caller, id: string) {
  const team = await authorizedTeam(ctx, caller.id, id, 'read', '');
  return presentInvites(ctx, team, await repo.pendingInvites(ctx.db, id, ctx.clock.now()));
}

async function presentInvites(ctx: AppContext, team: TeamRow, rows: TeamInviteRow[]) {
  const names = await repo.usernames(ctx.db, [...new Set(rows.map((r) => r.invitedBy))]);
  return rows.map((r) => presentInvite(r, team, { uid: r.invitedBy, username: names.get(r.invitedBy) ?? '' }));
}

/** Pending invites to the caller's address, across teams (shown on /notifications). */
export async function myInvites(ctx: AppContext, caller: Caller) {
  const rows = await repo.pendingInvitesFor(ctx.db, caller.email, ctx.clock.now());
  const out = [];
  for (const r of rows) {
    const team = await repo.byId(ctx.db, r.teamId);
    if (team) out.push(...(await presentInvites(ctx, team, [r])));
  }
  return out;
}

/**
 * Two links open an invite (ADR 0028). The mailed one carries a random token whose hash is stored:
 * only the mailbox sees it, so a sign-up with it proves the address. The copied one ("Copy invite
 * link", for servers that mail nothing) carries a token derived from the invite id with the server
 * secret, which its inviters can ask for again; it opens the invite but proves no address, since the
 * inviter has seen it.
 */
const copiedToken = (ctx: AppContext, inviteId: string) => sign(ctx.secret, 'teamInvite', [inviteId]);

/** The invite a link's token names: a mailed token by its hash, a copied one among the team's open invites. */
async function inviteOfToken(ctx: AppContext, teamId: string, token: string) {
  const mailed = await repo.inviteByToken(ctx.db, sha256(token));
  if (mailed) return mailed;
  for (const open of await repo.pendingInvites(ctx.db, teamId, ctx.clock.now())) if (verify(ctx.secret, 'teamInvite', [open.id], token)) return open;
  return null;
}

/**
 * Invites an address (with or without an account: the invite waits for sign-up) for 7 days, by
 * mail with a link that lands on the invite, and in the app when the address has an account (a
 * notification record, ADR 0028). Links use the origin the inviter's browser used (ADR 0018).
 */
export async function invite(ctx: AppContext, caller: Caller, id: string, input: { email: string; role: InviteRole }, origin?: string | null) {
  const team = await authorizedTeam(ctx, caller.id, id, 'invite', 'Only team owners and admins can invite');
  const email = input.email.trim().toLowerCase();
  const existing = await repo.userByEmail(ctx.db, email);
  if (existing && (await repo.member(ctx.db, id, existing.id))) throw errors.conflict(ErrorCode.AlreadyMember, `${email} is already a member of this team`);
  const now = ctx.clock.now();
  await repo.cancelExpired(ctx.db, id, email, now);
  if (await repo.openInviteFor(ctx.db, id, email)) throw errors.conflict(ErrorCode.InUse, `${email} is already invited`);
  const token = newToken();
  let row: TeamInviteRow;
  try {
    row = await repo.insertInvite(ctx.db, {
      id: newId(),
      teamId: id,
      email,
      role: input.role,
      invitedBy: caller.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + TEAM_INVITE_TTL_MS),
      createdAt: now,
    });
  } catch (err) {
    // Two invites to the same address at once: the unique pending index keeps one.
    if (await repo.openInviteFor(ctx.db, id, email)) throw errors.conflict(ErrorCode.InUse, `${email} is already invited`);
    throw err;
  }
  const inviter = await repo.userById(ctx.db, caller.id);
  await sendInviteMail(ctx, { to: email, team, inviter: inviter?.username ?? '', link: inviteLink(ctx, team.id, token, origin), expiresAt: row.expiresAt });
  if (existing) await notifyInvite(ctx, existing.id, { id: row.id, teamId: id, teamName: team.name });
  await ctx.events.emit('team.inviteSent', team.ownerId, {
    teamId: id,
    teamName: team.name,
    actorId: caller.id,
    inviteId: row.id,
    role: input.role,
    inviteeId: existing?.id ?? null,
  });
  return { ...(await presentInvites(ctx, team, [row]))[0]!, link: inviteLink(ctx, team.id, copiedToken(ctx, row.id), origin) };
}

/** The copied link of a pending invite for those who may invite (Copy invite link), on the caller's origin (ADR 0018). */
export async function inviteLinkOf(ctx: AppContext, caller: Caller, teamId: string, inviteId: string, origin?: string | null) {
  const team = await authorizedTeam(ctx, caller.id, teamId, 'invite', 'Only team owners and admins can share invite links');
  const invite = await repo.inviteById(ctx.db, teamId, inviteId);
  if (!invite || invite.acceptedAt || invite.rejectedAt || invite.cancelledAt || invite.expiresAt <= ctx.clock.now()) throw errors.notFound('Invite');
  return inviteLink(ctx, team.id, copiedToken(ctx, invite.id), origin);
}

/**
 * The caller's invite to this team: by the mail link's token, else by the caller's address. An
 * invite addressed to someone else is not the caller's, whoever holds the link.
 */
async function callersInvite(ctx: AppContext, caller: Caller, teamId: string, token?: string) {
  const team = await repo.byId(ctx.db, teamId);
  if (!team) throw notFound();
  const invite = token ? await inviteOfToken(ctx, teamId, token) : await repo.openInviteFor(ctx.db, teamId, caller.email);
  if (!invite || invite.teamId !== teamId) throw errors.notFound('Invite');
  if (invite.email.toLowerCase() !== caller.email.toLowerCase()) throw errors.forbidden('This invite was sent to another address');
  if (invite.acceptedAt || invite.rejectedAt || invite.cancelledAt) throw errors.conflict(ErrorCode.InviteUsed, 'This invite is no longer open');
  if (invite.expiresAt <= ctx.clock.now()) throw new AppError(410, ErrorCode.InviteExpired, 'This invite has expired; ask for a new one');
  return { team, invite };
}

/** The open invite a link (team + token) opens, or null: unknown, used, expired or of a deleted team. */
async function openInviteOfLink(ctx: AppContext, teamId: string, token: string) {
  const invite = await inviteOfToken(ctx, teamId, token);
  if (!invite || invite.teamId !== teamId || invite.acceptedAt || invite.rejectedAt || invite.cancelledAt || invite.expiresAt <= ctx.clock.now()) return null;
  const team = await repo.byId(ctx.db, teamId);
  return team ? { invite, team } : null;
}

/**
 * What the holder of an invite link sees before signing in or up: the team, who invited, the
 * address it was sent to (so the sign-up form can take it), until when. The link is the secret.
 */
export async function invitePreview(ctx: AppContext, teamId: string, token: string) {
  const found = await openInviteOfLink(ctx, teamId, token);
  if (!found) throw errors.notFound('Invite');
  const inviter = await repo.userById(ctx.db, found.invite.invitedBy);
  return {
    team: { id: found.team.id, name: found.team.name },
    email: found.invite.email,
    role: found.invite.role,
    invitedBy: inviter?.username ?? '',
    expiresAt: found.invite.expiresAt.toISOString(),
  };
}

/** Accepting twice at once leaves one member row: the invite closes once, the member insert is idempotent. */
export async function acceptInvite(ctx: AppContext, caller: Caller, teamId: string, token?: string) {
  const found = await callersInvite(ctx, caller, teamId, token).catch(async (err: unknown) => {
    // A parallel accept of the same invite already made the caller a member: same outcome.
    const team = !token || (err as AppError).statusCode !== 403 ? await repo.byId(ctx.db, teamId) : null;
    if (team && (await repo.member(ctx.db, teamId, caller.id))) return { team, invite: null };
    throw err;
  });
  const { team, invite } = found;
  if (!invite) return team;
  const now = ctx.clock.now();
  const joined = await ctx.db.transaction(async (tx) => {
    const closed = await repo.closeInvite(tx, invite.id, 'acceptedAt', now);
    if (!closed) return false;
    await repo.addMember(tx, { teamId, userId: caller.id, role: invite.role, joinedAt: now });
    return true;
  });
  if (!joined) {
    if (await repo.member(ctx.db, teamId, caller.id)) return team;
    throw errors.conflict(ErrorCode.InviteUsed, 'This invite is no longer open');
  }
  await ctx.events.emit('team.inviteAccepted', team.ownerId, { teamId, actorId: caller.id });
  return team;
}

export async function rejectInvite(ctx: AppContext, caller: Caller, teamId: string, token?: string) {
  const { team, invite } = await callersInvite(ctx, caller, teamId, token);
  if (!(await repo.closeInvite(ctx.db, invite.id, 'rejectedAt', ctx.clock.now()))) throw errors.conflict(ErrorCode.InviteUsed, 'This invite is no longer open');
  await ctx.events.emit('team.inviteRejected', team.ownerId, { teamId, actorId: caller.id });
}

/** Cancel by invite id or by address (spec `remove` with `{invite}`). */
export async function cancelInvite(ctx: AppContext, caller: Caller, teamId: string, ref: { id?: string; email?: string }) {
  const team = await authorizedTeam(ctx, caller.id, teamId, 'remove', 'Only team owners and admins can cancel invites');
  const invite = ref.id ? await repo.inviteById(ctx.db, teamId, ref.id) : ref.email ? await repo.openInviteFor(ctx.db, teamId, ref.email) : null;
  if (!invite || !(await repo.closeInvite(ctx.db, invite.id, 'cancelledAt', ctx.clock.now()))) throw errors.notFound('Invite');
  const invitee = await repo.userByEmail(ctx.db, invite.email);
  await ctx.events.emit('team.inviteCancelled', team.ownerId, { teamId, actorId: caller.id, inviteeId: invitee?.id ?? null });
}

/** Removing yourself is leaving; nobody removes the owner. */
export async function removeMember(ctx: AppContext, caller: Caller, teamId: string, memberId: string) {
  if (memberId === caller.id) return leaveTeam(ctx, caller, teamId);
  const team = await authorizedTeam(ctx, caller.id, teamId, 'remove', 'Only team owners and admins can remove members');
  const member = await repo.member(ctx.db, teamId, memberId);
  if (!member) throw errors.notFound('Member');
  if (member.role === 'owner' || team.ownerId === memberId) throw errors.forbidden('The team owner cannot be removed; transfer ownership first');
  // Admins manage members and viewers; only the owner removes another admin.
  if (member.role === 'admin' && team.ownerId !== caller.id) throw errors.forbidden('Only the team owner can remove an admin');
  await repo.removeMember(ctx.db, teamId, memberId);
  await ctx.events.emit('team.memberRemoved', team.ownerId, { teamId, actorId: caller.id, memberId });
}

/** The last admin (the owner included) cannot leave without handing the team over. */
export async function leaveTeam(ctx: AppContext, caller: Caller, teamId: string) {
  const team = await repo.byId(ctx.db, teamId);
  const member = team ? await repo.member(ctx.db, teamId, caller.id) : null;
  if (!team || !member) throw notFound();
  if (team.ownerId === caller.id || member.role === 'owner') throw errors.conflict(ErrorCode.LastAdmin, 'Transfer ownership before leaving the team');
  if (member.role === 'admin' && (await repo.otherAdmins(ctx.db, teamId, caller.id)) === 0)
    throw errors.conflict(ErrorCode.LastAdmin, 'The last admin cannot leave; make another member admin first');
  await repo.removeMember(ctx.db, teamId, caller.id);
  await ctx.events.emit('team.memberLeft', team.ownerId, { teamId, actorId: caller.id });
}

/**
 * Changes a member's role. Making someone `owner` transfers ownership (only the owner may): the
 * previous owner stays as admin.
 */
export async function setMemberRole(ctx: AppContext, caller: Caller, teamId: string, memberId: string, role: TeamMemberRole) {
  const team = await authorizedTeam(ctx, caller.id, teamId, 'update', 'Only team owners and admins can change roles');
  const member = await repo.member(ctx.db, teamId, memberId);
  if (!member) throw errors.notFound('Member');
  const isOwner = team.ownerId === caller.id;
  if (role === 'owner' || member.role === 'owner') {
    // Handing the team over is the matrix's `transfer` on the team (its owner only; ADR 0023).
    await authorize(ctx, caller.id, team, teamItem, 'transfer', { name: 'Team', forbidden: 'Only the team owner can transfer ownership' });
    if (role !== 'owner') throw errors.forbidden('The owner keeps that role; transfer ownership to another member instead');
    if (memberId === caller.id) return;
    await ctx.db.transaction(async (tx) => {
      await repo.setRole(tx, teamId, caller.id, 'admin');
      await repo.setRole(tx, teamId, memberId, 'owner');
      await repo.update(tx, teamId, { ownerId: memberId, updatedAt: ctx.clock.now() });
      await ctx.events.emit('team.ownershipTransferred', memberId, { teamId, actorId: caller.id, memberId });
    });
  } else {
    if (member.role === 'admin' && !isOwner && memberId !== caller.id) throw errors.forbidden('Only the team owner can change an admin');
    if (member.role === 'admin' && role !== 'admin' && (await repo.otherAdmins(ctx.db, teamId, memberId)) === 0)
      throw errors.conflict(ErrorCode.LastAdmin, 'The team needs at least one admin');
    await repo.setRole(ctx.db, teamId, memberId, role);
    await ctx.events.emit('team.memberRoleChanged', team.ownerId, { teamId, actorId: caller.id, memberId, role });
  }
}

const ITEM_NAMES: Record<TeamItemKind, string> = { dataset: 'Dataset', project: 'Project', model: 'Model' };

/**
 * Puts one of the caller's items into the team (members and above); a project brings its models.
 * The item owner shares it; nobody else moves someone's work into a team.
 */
export async function addItem(ctx: AppContext, caller: Caller, teamId: string, kind: TeamItemKind, itemId: string) {
  const { team, role } = await visibleTeam(ctx, caller, teamId);
  if (!role || !teamAbilities(teamViewer(caller.id, team, role), team).canAddItems) throw errors.forbidden('Viewers cannot add items to the team');
  const row = await repo.item(ctx.db, kind, itemId);
  const item = row ? { kind, id: itemId, userId: row.userId, teamId: row.teamId, privacy: row.privacy, deletedAt: row.deletedAt } : null;
  // Into a team: where its current team (if any) has no say, so the matrix's `transfer` (the owner only; ADR 0023).
  await authorize(ctx, caller.id, item, (i) => i, 'transfer', { name: ITEM_NAMES[kind], forbidden: `Only the owner can share this ${kind} with a team` });
  const modelIds = await ctx.db.transaction((tx) => repo.setItemTeam(tx, kind, itemId, teamId, ctx.clock.now()));
  await ctx.events.emit('team.itemAdded', team.ownerId, { teamId, actorId: caller.id, kind, itemId, modelIds });
}

/** Takes an item out of the team: its owner, or a team admin; a project takes its models along. */
export async function removeItem(ctx: AppContext, caller: Caller, teamId: string, kind: TeamItemKind, itemId: string) {
  const row = await repo.item(ctx.db, kind, itemId);
  if (!row || row.teamId !== teamId) throw errors.notFound(ITEM_NAMES[kind]);
  // Out of its team, back to its owner's own items: the matrix's `move` (owner or team admin; ADR 0023).
  const item = { kind, id: itemId, userId: row.userId, teamId: row.teamId, privacy: row.privacy, deletedAt: row.deletedAt };
  await authorize(ctx, caller.id, item, (i) => i, 'move', {
    name: ITEM_NAMES[kind],
    forbidden: 'Only the owner or a team admin can take an item out of the team',
  });
  const modelIds = await ctx.db.transaction((tx) => repo.setItemTeam(tx, kind, itemId, null, ctx.clock.now()));
  await ctx.events.emit('team.itemRemoved', row.userId, { teamId, actorId: caller.id, kind, itemId, modelIds });
}

/** The team's live datasets, projects and models (members only). */
export async function teamItems(ctx: AppContext, caller: Caller, teamId: string) {
  await authorizedTeam(ctx, caller.id, teamId, 'read', '');
  return repo.itemsOf(ctx.db, teamId);
}
