import os from 'node:os';
import type { FastifyRequest } from 'fastify';

/** localhost, 127.0.0.0/8, ::1 (with or without brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1' || h === '::ffff:127.0.0.1';
}

/** The names this machine answers to: its interface addresses and its host name (loopback is checked apart). */
function ownHosts(): Set<string> {
  const hosts = new Set<string>([os.hostname().toLowerCase()]);
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) hosts.add(a.address.toLowerCase());
  return hosts;
}

/**
 * The origin for links in mails when PUBLIC_URL is unset (ADR 0018): the one the browser used for
 * this request. Behind TRUST_PROXY, Fastify reads it from X-Forwarded-Proto/-Host, which the proxy
 * sets; without a proxy, the Host header is taken only when it names this machine (loopback, one
 * of its addresses, its host name), so that a forged Host cannot point a reset link at another site.
 * null when there is none to trust.
 */
export function linkOriginOf(request: FastifyRequest, trustProxy: boolean): string | null {
  const host = request.host;
  if (!host) return null;
  let url: URL;
  try {
    url = new URL(`${request.protocol}://${host}`);
  } catch {
    return null;
  }
  if (trustProxy) return url.origin;
  const name = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return isLoopbackHost(name) || ownHosts().has(name) ? url.origin : null;
}
