import type { AppContext } from '../../context.js';
import { shortLinkExpiry } from '../../platform/http/signed-links.js';
import { accessVersion } from '../../platform/security/signing.js';
import { signBlobUrl } from '../../platform/storage/signed-url.js';

/**
 * The access version links to an item's files carry (issue 16): privacy, team and trash state.
 * Projects cascade privacy and trash to their models, so a model's own row says enough.
 */
export const linkVersionOf = (row: { privacy: string; teamId?: string | null; deletedAt?: Date | null }) => accessVersion([row.privacy, row.teamId ?? null, row.deletedAt ? 1 : 0]);

/** A team's image link: valid while the team lives (a deleted team's link answers 404), for the 10–20 minutes of a short link. */
export const teamLinkVersionOf = (row: { id: string }) => accessVersion(['team', row.id]);

/** A blob link for the web app: short-lived and bound to its item's access version (the blob route checks it, links.service.ts). */
export function shortBlobUrl(ctx: Pick<AppContext, 'secret' | 'clock'>, key: string, access: string): string {
  return signBlobUrl({ key, expiresAt: shortLinkExpiry(ctx.clock.now()), secret: ctx.secret, baseUrl: '', access });
}
