import type { AppContext } from '../../context.js';
import { escapeHtml } from '../../platform/mail/html.js';
import type { TeamRow } from './teams.repository.js';

/**
 * An invite's link: PUBLIC_URL, else the origin the inviter's browser used (ADR 0018), the same
 * origin the admins' mail-links banner announces.
 */
export const inviteLink = (ctx: AppContext, teamId: string, token: string, origin?: string | null) =>
  `${ctx.baseUrl(origin ?? undefined)}/teams/${encodeURIComponent(teamId)}?invite=${encodeURIComponent(token)}`;

/**
 * The invite mail. Its link opens `/teams/{id}?invite=<token>` in the app: signed out, the app
 * asks to sign in or sign up (the address may have no account yet) and comes back to the invite.
 */
export async function sendInviteMail(ctx: AppContext, input: { to: string; team: TeamRow; inviter: string; link: string; expiresAt: Date }) {
  const link = input.link;
  const until = input.expiresAt.toUTCString();
  await ctx.mailer.send({
    to: input.to,
    subject: `${input.inviter} invited you to the team ${input.team.name} on Sightline`,
    text: `Hi,\n\n${input.inviter} invited you to join the team "${input.team.name}" on Sightline.\n\nOpen the invite (sign in, or sign up with this address):\n\n${link}\n\nThe invite is valid until ${until}.\n`,
    html: `<p>Hi,</p><p>${escapeHtml(input.inviter)} invited you to join the team <b>${escapeHtml(input.team.name)}</b> on Sightline.</p><p><a href="${link}">Open the invite</a> (sign in, or sign up with this address)</p><p>The invite is valid until ${escapeHtml(until)}.</p>`,
  });
}
