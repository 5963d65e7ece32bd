import type { AppContext } from '../../context.js';
import { shortLinkExpiry } from '../../platform/http/signed-links.js';
import { accessVersion } from '../../platform/security/signing.js';
import { signBlobUrl } from '../../platform/storage/signed-url.js';
import { currentAuditScope } from '../audit/audit.context.js';

type VersionedRow = { privacy: string; teamId?: string | null; deletedAt?: Date | null };

/**
 * The item part of a link's access (ADR 0014): privacy, team and trash state. Projects
 * cascade privacy and trash to their models, so a model's own row says enough.
 */
export const itemLinkVersion = (row: VersionedRow) => accessVersion([row.privacy, row.teamId ?? null, row.deletedAt ? 1 : 0]);

/**
 * Who a link is handed to (ADR 0023): the calling browser session (`s<id>`) or API key (`k<id>`) of
 * the request being served; none for a signed-out caller or outside a request (jobs, mails).
 */
export function currentLinkHolder(): string | null {
  const principal = currentAuditScope()?.request.principal;
  if (!principal) return null;
  if (principal.via === 'session' && principal.sessionId) return `s${principal.sessionId}`;
  return principal.apiKeyId ? `k${principal.apiKeyId}` : null;
}

/**
 * The access a new link to an item's files carries and signs: the item's version and its holder,
 * `<version>.<holder>` (ADR 0023). Serving checks both (links.service.ts linkGrants): the item must
 * be in the same state, and the holder still signed in (session), not revoked (key) and still
 * allowed to read the item (a removed team member's links die with the membership).
 */
export const linkVersionOf = (row: VersionedRow) => {
  const holder = currentLinkHolder();
  const version = itemLinkVersion(row);
  return holder ? `${version}.${holder}` : version;
};

/** A link's signed access split into the item version and the holder (null for links of signed-out callers). */
export function parseLinkAccess(access: string): { version: string; holder: string | null } {
  const dot = access.indexOf('.');
  return dot < 0 ? { version: access, holder: null } : { version: access.slice(0, dot), holder: access.slice(dot + 1) || null };
}

/** A team's image link: valid while the team lives (a deleted team's link answers 404), for the 10–20 minutes of a short link. */
export const teamLinkVersionOf = (row: { id: string }) => accessVersion(['team', row.id]);

/** A blob link for the web app: short-lived and bound to its item's access version (the blob route checks it, links.service.ts). */
export function shortBlobUrl(ctx: Pick<AppContext, 'secret' | 'clock'>, key: string, access: string): string {
  return signBlobUrl({ key, expiresAt: shortLinkExpiry(ctx.clock.now()), secret: ctx.secret, baseUrl: '', access });
}
