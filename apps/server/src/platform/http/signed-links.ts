import { signExpiring, verifyExpiring, type SignatureVerdict } from '../security/signing.js';
import { ErrorCode } from '@sightline/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, errors } from './errors.js';

/**
 * Links for clients that send no auth header (the ultralytics clients download datasets and upload
 * checkpoints this way: hub-protocol §5.9, platform-protocol §5.3, §4.6): the path stays stable,
 * because the client names local files (and caches NDJSON conversions) by it, and the query carries
 * an expiry and its own signature.
 */

/** Seven days, like the hosted Platform's signed image URLs: a long training run still finds its data. */
export const CLIENT_URL_TTL_MS = 7 * 86_400_000;

/**
 * Links the web app gets in answers (thumbnails, originals, archives, weights) live minutes: a list
 * refetch hands out new ones. The expiry is rounded up to a 10-minute step, so the same file keeps
 * the same URL (and the browser's cached copy) within a step: a link lives 10 to 20 minutes.
 */
export const SHORT_LINK_TTL_MS = 10 * 60_000;
export function shortLinkExpiry(now: Date): Date {
  return new Date(Math.ceil((now.getTime() + SHORT_LINK_TTL_MS) / SHORT_LINK_TTL_MS) * SHORT_LINK_TTL_MS);
}

/**
 * Absolute, signed URL for a path served by one of the compat routes. `access` (an item's access
 * version, signing.ts accessVersion) travels as `a` and is signed: the route compares it with the
 * item's state when the link is used (ADR 0014).
 */
export function signCompatUrl(ctx: Pick<AppContext, 'secret' | 'clock'>, baseUrl: string, path: string, ttlMs = CLIENT_URL_TTL_MS, access?: string): string {
  const exp = Math.floor((ctx.clock.now().getTime() + ttlMs) / 1000);
  const sig = signExpiring(ctx.secret, 'compat', path, exp, access ? [access] : []);
  return `${baseUrl.replace(/\/+$/, '')}${path}?exp=${exp}&sig=${sig}${access ? `&a=${access}` : ''}`;
}

export type CompatVerdict = SignatureVerdict;

export function verifyCompatUrl(ctx: Pick<AppContext, 'secret' | 'clock'>, rawUrl: string): CompatVerdict {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  const exp = params.get('exp') ?? '';
  const sig = params.get('sig') ?? '';
  const access = params.get('a');
  return verifyExpiring(ctx.secret, 'compat', path, exp, sig, ctx.clock.now(), access ? [access] : []);
}

/**
 * Throws the matching 403/410 when the request's URL is not a valid signed compat link; answers the
 * access version the link carries (null when none) for the route to compare with the item's state.
 */
export function assertSignedRequest(ctx: Pick<AppContext, 'secret' | 'clock'>, request: FastifyRequest): string | null {
  const verdict = verifyCompatUrl(ctx, request.url);
  if (verdict === 'invalid') throw errors.forbidden('This download link is invalid');
  if (verdict === 'expired') throw new AppError(410, ErrorCode.Expired, 'This download link has expired');
  const q = request.url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1)).get('a');
}

/** The origin the caller reached us by, used when PUBLIC_URL is not configured. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The base of absolute links in an answer: PUBLIC_URL, else the origin of this request. */
export function baseUrlFor(ctx: Pick<AppContext, 'baseUrl'>, request: FastifyRequest): string {
  return ctx.baseUrl(requestOrigin(request));
}
