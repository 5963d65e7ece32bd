import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net, { BlockList, type LookupFunction } from 'node:net';

/**
 * The network edge of outgoing webhooks: which addresses a delivery may reach, and one HTTP POST
 * with a hard deadline. Every delivery resolves the host itself, checks every address, and then
 * connects to the address it checked (the socket's lookup is pinned), so a DNS answer that changes
 * between the check and the connection (rebinding) cannot reach an internal address.
 */

const blocked = new BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net4, prefix, 'ipv4');
}
for (const [net6, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  blocked.addSubnet(net6, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Loopback, private, link-local, multicast, reserved: nothing a webhook should reach by default. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export interface ResolvedTarget {
  url: URL;
  /** every address the host resolves to (literal IPs: itself) */
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

export class UrlRefused extends Error {
  constructor(
    message: string,
    /** true: a transient resolution failure worth a retry; false: the URL is not allowed */
    readonly transient = false,
  ) {
    super(message);
  }
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;
const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves a webhook URL and refuses it when any address is private (unless allowed). Called when a
 * webhook is saved and again before every delivery.
 */
export async function resolveTarget(raw: string, opts: { allowPrivate: boolean; resolver?: Resolver }): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('The URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlRefused('Only http:// and https:// URLs can receive webhooks');
  if (url.username || url.password) throw new UrlRefused('Credentials in the URL are not allowed; use the signature to authenticate deliveries');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: 4 | 6 }>;
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) as 4 | 6 }];
  } else {
    try {
      addresses = (await (opts.resolver ?? systemResolver)(host)).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch (err) {
      throw new UrlRefused(`The host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`, true);
    }
    if (addresses.length === 0) throw new UrlRefused(`The host ${host} has no address`, true);
  }
  if (!opts.allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad)
      throw new UrlRefused(
        `${host} resolves to ${bad.address}, a loopback, private or link-local address; an admin can allow such URLs in the webhook settings`,
      );
  }
  return { url, addresses };
}

export interface PostResult {
  statusCode: number | null;
  responseMs: number;
  error: string | null;
}

/**
 * POSTs `body` to the resolved target, connecting only to the checked address. Answers within
 * `timeoutMs` whatever the receiver does (slow headers, a slow body, a silent socket): the request
 * is destroyed at the deadline. Redirects are not followed. The response body is read and dropped
 * (at most 64 KiB).
 */
export function postJson(target: ResolvedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
  const pinned = target.addresses[0]!;
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(r);
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 64 * 1024) res.destroy();
        });
        const done = () => finish({ statusCode: res.statusCode ?? null, responseMs: elapsed(), error: null });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const deadline = setTimeout(() => {
      finish({ statusCode: null, responseMs: elapsed(), error: `Timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({ statusCode: null, responseMs: elapsed(), error: `${err.code ?? 'error'}: ${err.message}`.slice(0, 500) }),
    );
    req.end(body);
  });
}
