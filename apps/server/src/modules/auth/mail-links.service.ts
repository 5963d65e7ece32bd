import type { MailLinks } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { isLoopbackHost } from '../../platform/http/link-origin.js';

/** Where links in mails point for a request from `origin` (ADR 0018), and whether only this machine can open them. */
export function mailLinksFor(ctx: AppContext, origin: string | null): MailLinks {
  const base = ctx.baseUrl(origin ?? undefined);
  const source = ctx.config.publicUrl ? 'PUBLIC_URL' : origin ? 'request' : 'default';
  return { base, source, loopback: isLoopbackHost(new URL(base).hostname) };
}
