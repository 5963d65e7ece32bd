import { z } from 'zod';
import { safeName } from './names.js';
import { TEAM_DESCRIPTION_MAX, TEAM_NAME_MAX } from './constants.js';
import { TEAM_ROLES } from './permissions.js';

/** Invites expire after seven days. */
export const TEAM_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const teamRoleSchema = z.enum(TEAM_ROLES);
/** Roles an invite may carry: ownership is transferred, never invited into. */
export const inviteRoleSchema = z.enum(['admin', 'member', 'labeler', 'viewer']);
export type InviteRole = z.infer<typeof inviteRoleSchema>;

/** What the caller may do with a team (from the permission matrix; the SPA hides the rest). */
export const teamAbilitiesSchema = z.object({
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  canShare: z.boolean(),
  canInvite: z.boolean(),
  canRemove: z.boolean(),
  /** add own items to the team (members and above, not viewers) */
  canAddItems: z.boolean(),
  canLeave: z.boolean(),
});
export type TeamAbilities = z.infer<typeof teamAbilitiesSchema>;

/** Team entity of spec §3: id, dates, meta, owner, membersCount, invited flag. */
export const teamSchema = z.object({
  id: z.string(),
  dates: z.object({ created: z.string(), updated: z.string() }),
  meta: z.object({
    name: z.string(),
    description: z.string(),
    image: z.object({ path: z.string(), url: z.string() }).nullable(),
  }),
  owner: z.object({ uid: z.string(), username: z.string() }),
  membersCount: z.number().int(),
  /** the caller has a pending invite to this team (shows Join) */
  invited: z.boolean(),
  /** the caller's role, null when only invited */
  role: teamRoleSchema.nullable(),
  /** the caller's pending invite, when `invited` */
  invite: z.object({ id: z.string(), role: inviteRoleSchema, expiresAt: z.string() }).nullable(),
  abilities: teamAbilitiesSchema,
});
export type Team = z.infer<typeof teamSchema>;

/** Team member of spec §3: uid, username, email, name, role (plus when they joined). */
export const teamMemberSchema = z.object({
  uid: z.string(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  role: teamRoleSchema,
  joinedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** Team invite of spec §3: email, role, parent (collection teams, id, name). */
export const teamInviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: inviteRoleSchema,
  parent: z.object({ collection: z.literal('teams'), id: z.string(), name: z.string() }),
  invitedBy: z.object({ uid: z.string(), username: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TeamInvite = z.infer<typeof teamInviteSchema>;
/** The invite just made, or a pending one for its inviters: with the link that opens it (Copy invite link). */
export const teamInviteWithLinkSchema = teamInviteSchema.extend({ link: z.string() });
export type TeamInviteWithLink = z.infer<typeof teamInviteWithLinkSchema>;
export const teamInviteLinkSchema = z.object({ link: z.string() });
export type TeamInviteLink = z.infer<typeof teamInviteLinkSchema>;
/** `GET /v1/teams/{id}/invite-preview?token=`: what a signed-out holder of the link sees. */
export const teamInvitePreviewSchema = z.object({
  team: z.object({ id: z.string(), name: z.string() }),
  email: z.string(),
  role: inviteRoleSchema,
  invitedBy: z.string(),
  expiresAt: z.string(),
});
export type TeamInvitePreview = z.infer<typeof teamInvitePreviewSchema>;

const teamName = safeName(z.string().trim().max(TEAM_NAME_MAX, `Team name must be at most ${TEAM_NAME_MAX} characters`));
const teamDescription = z.string().trim().max(TEAM_DESCRIPTION_MAX, `Description must be at most ${TEAM_DESCRIPTION_MAX} characters`);

/** A blank name gets a generated one (spec §5). */
export const createTeamBody = z.object({ meta: z.object({ name: teamName.optional(), description: teamDescription.optional() }).optional() });
export const updateTeamBody = z.object({ meta: z.object({ name: teamName, description: teamDescription }).partial() });
export type CreateTeamBody = z.infer<typeof createTeamBody>;
export type UpdateTeamBody = z.infer<typeof updateTeamBody>;

const email = z.string().trim().toLowerCase().email().max(254);
export const createInviteBody = z.object({ email, role: inviteRoleSchema.default('member') });
/** `POST /api_v1/teams/{id}/invite` of spec §7. */
export const specInviteBody = z.object({
  data: z.object({ email, role: inviteRoleSchema.default('member') }),
  parent: z.object({ collection: z.literal('teams'), id: z.string().max(40), name: z.string().max(200).optional() }),
});
/** Accept through the mail link carries its token; from the app the caller's own invite is found by email. */
export const acceptInviteBody = z.object({ token: z.string().max(200).optional() }).nullish();
/** `POST /api_v1/teams/{id}/remove` of spec §7: a member (uid or member object) or an invite (id/email or invite object). */
export const specRemoveBody = z.union([
  z.object({ member: z.union([z.string().max(40), z.object({ uid: z.string().max(40) })]) }),
  z.object({ invite: z.union([z.string().max(254), z.object({ id: z.string().max(40).optional(), email: z.string().max(254).optional() })]) }),
]);
export const updateMemberBody = z.object({ role: teamRoleSchema });
export const TEAM_ITEM_KINDS = ['dataset', 'project', 'model'] as const;
export const teamItemKindSchema = z.enum(TEAM_ITEM_KINDS);
export type TeamItemKind = z.infer<typeof teamItemKindSchema>;
/** Put one of your items into the team (a project brings its models). */
export const addTeamItemBody = z.object({ kind: teamItemKindSchema, id: z.string().max(40) });

/** The server's answer on why team creation is (not) possible for the caller. */
export const teamCreationSchema = z.object({ allowed: z.boolean(), reason: z.enum(['plan', 'flag']).nullable() });
export type TeamCreation = z.infer<typeof teamCreationSchema>;

/** Acronym of a team name for its card when it has no image: first letters of up to two words. */
export function teamAcronym(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? [...words[0]!].slice(0, 2) : words.slice(0, 2).map((w) => [...w][0]!);
  return letters.join('').toUpperCase();
}
