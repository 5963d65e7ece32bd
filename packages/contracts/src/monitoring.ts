/**
 * Error monitoring (docs/deploy.md §8): what server and web send to a Sentry-compatible service when
 * SENTRY_DSN is set. One scrubber for both SDKs' beforeSend / beforeSendTransaction, so no
 * credential leaves the instance: cookies, authorization and API-key headers, secret query
 * parameters (api_key, token, key, sig…), secret-looking body fields, and API keys in messages.
 */
export const SECRET_HEADERS = ['cookie', 'set-cookie', 'authorization', 'proxy-authorization', 'x-api-key', 'sightline-signature', 'stripe-signature'];
export const SECRET_QUERY_PARAMS = [
  'api_key',
  'apikey',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'key',
  'sig',
  'signature',
  'secret',
  'password',
  'code',
  'state',
];
const SECRET_FIELD = /pass(word)?|secret|token|api[-_]?key|authorization|cookie|session|signature|credential/i;
export const SCRUBBED = '[scrubbed]';

const QUERY_RE = new RegExp(`([?&;](?:${SECRET_QUERY_PARAMS.join('|')})=)[^&#;\\s"']*`, 'gi');
/**
 * ul_… / sla_… keys and legacy `ul<40 hex>` keys, Bearer tokens, session cookies inside free text
 * (messages, breadcrumbs, URL paths: a client may put a key anywhere), and long hex secrets.
 */
const TEXT_RE = /\b(?:ul|sla)_[A-Za-z0-9_-]{8,}|\bul[0-9a-f]{40}\b|\b[0-9a-f]{40,}\b|(?<=Bearer\s)[A-Za-z0-9._~+/=-]{8,}|(?<=sl_session=)[^;\s]+/g;
/**
 * Random tokens (sessions, mail links, upload grants: 32+ base64url characters) wherever they sit
 * in a path or text: a run of 32+ token characters with upper and lower case letters and a digit.
 * Ids (20 characters) and slugs (lower case) stay readable.
 */
const TOKEN_RE = /(?<![A-Za-z0-9_~-])(?=[A-Za-z0-9_~.-]*[A-Z])(?=[A-Za-z0-9_~.-]*[a-z])(?=[A-Za-z0-9_~.-]*[0-9])[A-Za-z0-9_~.-]{32,}/g;

export function scrubText(text: string): string {
  return text.replace(QUERY_RE, `$1${SCRUBBED}`).replace(TEXT_RE, SCRUBBED).replace(TOKEN_RE, SCRUBBED);
}

function scrubQuery(q: unknown): unknown {
  if (typeof q === 'string') {
    const scrubbed = scrubText(`?${q.replace(/^\?/, '')}`).slice(1);
    return q.startsWith('?') ? `?${scrubbed}` : scrubbed;
  }
  if (Array.isArray(q))
    return q.map((pair) => (Array.isArray(pair) && SECRET_QUERY_PARAMS.includes(String(pair[0]).toLowerCase()) ? [pair[0], SCRUBBED] : pair));
  if (q && typeof q === 'object')
    return scrubObject(q as Record<string, unknown>, (k) => SECRET_QUERY_PARAMS.includes(k.toLowerCase()) || SECRET_FIELD.test(k));
  return q;
}

function scrubObject(obj: Record<string, unknown>, isSecret: (key: string) => boolean, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (isSecret(k)) out[k] = SCRUBBED;
    else if (typeof v === 'string') out[k] = scrubText(v);
    else if (v && typeof v === 'object' && depth < 6)
      out[k] = Array.isArray(v)
        ? v.map((x) => (x && typeof x === 'object' ? scrubObject(x as Record<string, unknown>, isSecret, depth + 1) : typeof x === 'string' ? scrubText(x) : x))
        : scrubObject(v as Record<string, unknown>, isSecret, depth + 1);
    else out[k] = v;
  }
  return out;
}

/** The parts of a Sentry event the scrubber touches (structural, so contracts need no SDK types). */
export interface ScrubbableEvent {
  message?: string;
  request?: { url?: string; headers?: Record<string, string>; cookies?: unknown; query_string?: unknown; data?: unknown; [k: string]: unknown };
  exception?: { values?: Array<{ value?: string; [k: string]: unknown }> };
  breadcrumbs?: Array<{ message?: string; data?: Record<string, unknown>; [k: string]: unknown }>;
  extra?: Record<string, unknown>;
  contexts?: Record<string, unknown>;
  user?: Record<string, unknown>;
  [k: string]: unknown;
}

/** beforeSend for both SDKs: returns the event with every secret replaced (never drops it). */
export function scrubEvent<E extends object>(input: E): E {
  const event = input as ScrubbableEvent;
  if (event.message) event.message = scrubText(event.message);
  const req = event.request;
  if (req) {
    if (req.url) req.url = scrubText(req.url);
    if (req.headers) {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = SECRET_HEADERS.includes(k.toLowerCase()) ? SCRUBBED : scrubText(String(v));
      req.headers = headers;
    }
    if (req.cookies !== undefined) delete req.cookies;
    if (req.query_string !== undefined) req.query_string = scrubQuery(req.query_string);
    if (req.data !== undefined)
      req.data =
        typeof req.data === 'string'
          ? scrubText(req.data)
          : req.data && typeof req.data === 'object'
            ? scrubObject(req.data as Record<string, unknown>, (k) => SECRET_FIELD.test(k))
            : req.data;
  }
  for (const ex of event.exception?.values ?? []) if (ex.value) ex.value = scrubText(ex.value);
  for (const b of event.breadcrumbs ?? []) {
    if (b.message) b.message = scrubText(b.message);
    if (b.data) b.data = scrubObject(b.data, (k) => SECRET_FIELD.test(k));
  }
  if (event.extra) event.extra = scrubObject(event.extra, (k) => SECRET_FIELD.test(k));
  if (event.contexts) event.contexts = scrubObject(event.contexts, (k) => SECRET_FIELD.test(k));
  if (event.user) event.user = { ...(event.user.id ? { id: event.user.id } : {}) };
  return input;
}

/** beforeBreadcrumb for both SDKs (URLs of fetches and navigations carry query strings). */
export function scrubBreadcrumb<B extends object>(crumb: B): B {
  scrubEvent({ breadcrumbs: [crumb as NonNullable<ScrubbableEvent['breadcrumbs']>[number]] });
  return crumb;
}
