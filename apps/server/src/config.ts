import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Environment → typed config. Unknown values fail at boot with every bad variable listed. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  /** Embedded engine when DATABASE_URL is unset: PostgreSQL binaries from npm (default) or PGlite (ADR 0010). */
  EMBEDDED_DB: z.enum(['postgres', 'pglite']).default('postgres'),
  /**
   * `on`: the embedded PostgreSQL waits for each commit's WAL flush. Default `off` (ADR 0017): commits
   * do not wait for the disk; a power loss or OS crash can lose the last ~0.6 s of commits, never
   * consistency (a crash of the server or of PostgreSQL loses nothing). No effect with DATABASE_URL.
   */
  EMBEDDED_DB_SYNC_COMMIT: z.enum(['on', 'off']).default('off'),
  SESSION_SECRET: z.string().min(32).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * The reverse proxies whose X-Forwarded-For/-Proto/-Host are believed (ADR 0025): addresses or CIDRs,
   * comma-separated (`127.0.0.1`, `10.0.0.0/8`), or `loopback`/`linklocal`/`uniquelocal`. The client's
   * address is then the last one in X-Forwarded-For that is not a trusted proxy, so a client-chosen
   * X-Forwarded-For counts for nothing. `false` (default): no proxy, the socket's address is the client's.
   */
  TRUST_PROXY: z.string().default('false'),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  WEB_DIST: z.string().optional(),
  // mail
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Sightline <no-reply@sightline.local>'),
  // billing: Stripe is on when STRIPE_SECRET_KEY is set (then the webhook secret and price ids too)
  STRIPE_SECRET_KEY: z.string().min(8).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
  STRIPE_API_BASE: z.url().optional(),
  STRIPE_PRICE_PRO_MONTHLY: z.string().optional(),
  STRIPE_PRICE_PRO_YEARLY: z.string().optional(),
  // blobs
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  // social sign-in, each enabled by its variables
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  APPLE_CLIENT_ID: z.string().optional(),
  APPLE_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().default('SSO'),
  // app labels (spec §1)
  APP_VERSION: z.string().default('v0.1.85-rc.1'),
  APP_ENVIRONMENT: z.string().default('staging'),
  JOBS_ENABLED: bool.default(true),
  /** Lease of a background job (ADR 0013, 0025): a dead or stalled holder loses its job after this long. */
  JOB_LEASE_SECONDS: z.coerce.number().min(0.5).max(3600).default(30),
  /** A resumable upload not finished this long after it began is deleted (on every instance; ADR 0025). */
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .min(0.0001)
    .max(24 * 365)
    .default(24),
  /** Server pings on realtime sockets: a socket that misses a pong for this long is closed (presence updated). */
  REALTIME_HEARTBEAT_SECONDS: z.coerce.number().min(0.1).max(300).default(25),
  // GPU agents: a job whose agent misses heartbeats this long is requeued or failed
  AGENT_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  // Training runs (ADR 0020): silent this long before the first epoch / after it → Timeout (spec §9: 15 min, 5 min)
  TRAINING_START_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(15 * 60),
  TRAINING_SILENCE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(5 * 60),
  /**
   * The built-in export worker (ADR 0022): `auto` runs exports on this machine when its `yolo`
   * (EXPORT_WORKER_YOLO, default `yolo` on PATH) imports ultralytics; `off` never. Default `auto`,
   * `off` under NODE_ENV=test (test servers ask for it).
   */
  EXPORT_WORKER: z.enum(['auto', 'off']).optional(),
  EXPORT_WORKER_YOLO: z.string().min(1).default('yolo'),
  // Roboflow import (tests and air-gapped installs point it at another host)
  ROBOFLOW_API_URL: z.url().default('https://api.roboflow.com'),
  ROBOFLOW_EXPORT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(10)
    .default(15 * 60_000),
  ROBOFLOW_POLL_MS: z.coerce.number().int().min(1).default(2000),
  // error monitoring (docs/deploy.md §8): nothing is initialised or sent unless SENTRY_DSN is set
  SENTRY_DSN: z.url().optional(),
  /** the web app's DSN when it differs (a browser-facing ingest host); defaults to SENTRY_DSN */
  SENTRY_WEB_DSN: z.url().optional(),
  // outgoing webhooks (ADR 0016): per-attempt timeout, attempts, first retry delay (doubles each time)
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  /**
   * argon2id cost of new password hashes (ADR 0002): `owasp` (OWASP's minimum, 19 MiB, 2 passes);
   * `test` (1 MiB, 1 pass) is for the test suites' hundreds of sign-ups and refused in production.
   */
  PASSWORD_HASH_COST: z.enum(['owasp', 'test']).default('owasp'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string | null;
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string | null;
  embeddedDb: 'postgres' | 'pglite';
  embeddedSyncCommit: boolean;
  sessionSecret: string | null;
  sessionTtlMs: number;
  /** Trusted proxies (addresses, CIDRs, proxy-addr keywords); empty: none. */
  trustProxy: string[];
  bodyLimit: number;
  webDist: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** null: billing off (admins set plans and credit wallets by hand). */
  stripe: { secretKey: string; webhookSecret: string; apiBase: string | null; prices: { proMonthly: string; proYearly: string } } | null;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean } | null;
  oauth: {
    google: { clientId: string; clientSecret: string } | null;
    github: { clientId: string; clientSecret: string } | null;
    apple: { clientId: string; clientSecret: string } | null;
    oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
  };
  appVersion: string;
  appEnvironment: string;
  jobsEnabled: boolean;
  jobLeaseMs: number;
  passwordHashCost: Env['PASSWORD_HASH_COST'];
  uploadExpiryMs: number;
  /** Interval of the server's realtime pings; a socket silent for one interval after a ping is closed. */
  realtimeHeartbeatMs: number;
  agentLeaseMs: number;
  /** Run lifecycle windows (ADR 0020): silence before the first epoch and after it that times a run out. */
  training: { startWindowMs: number; silenceWindowMs: number };
  /** The built-in export worker (ADR 0022): whether to probe for it, and the ultralytics CLI it runs. */
  exportWorker: { enabled: boolean; yolo: string };
  roboflow: { apiUrl: string; exportTimeoutMs: number; pollMs: number };
  /** null: error monitoring off (no SDK initialised) */
  sentry: { dsn: string; webDsn: string } | null;
  webhooks: { timeoutMs: number; maxAttempts: number; retryBaseMs: number };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function pair(id?: string, secret?: string) {
  return id && secret ? { clientId: id, clientSecret: secret } : null;
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY → the proxies to trust; `true` (everyone) is refused: any client could then choose its own address. */
export function parseTrustProxy(value: string, problems: string[]): string[] {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0' || v === 'no') return [];
  if (v === 'true' || v === '1' || v === 'yes') {
    problems.push(
      "TRUST_PROXY: name the proxies to trust (e.g. 127.0.0.1 or 10.0.0.0/8), not 'true': trusting every address lets any client choose its own X-Forwarded-For",
    );
    return [];
  }
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [addr, bits, extra] = entry.split('/');
    const family = net.isIP(addr ?? '');
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(PROXY_KEYWORDS.has(entry) || (family !== 0 && okBits && extra === undefined))) {
      problems.push(`TRUST_PROXY: ${JSON.stringify(entry)} is not an IP address, a CIDR or one of loopback, linklocal, uniquelocal`);
    }
  }
  return list;
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const s3Vars = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (s3Vars.some(Boolean) && !s3Vars.every(Boolean)) {
    problems.push('S3_*: set S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together');
  }
  if ((e.OIDC_ISSUER || e.OIDC_CLIENT_ID) && !(e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET)) {
    problems.push('OIDC_*: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together');
  }
  if (e.STRIPE_SECRET_KEY && !(e.STRIPE_WEBHOOK_SECRET && e.STRIPE_PRICE_PRO_MONTHLY && e.STRIPE_PRICE_PRO_YEARLY)) {
    problems.push('STRIPE_*: with STRIPE_SECRET_KEY set STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO_MONTHLY and STRIPE_PRICE_PRO_YEARLY too');
  }
  const trustProxy = parseTrustProxy(e.TRUST_PROXY, problems);
  if (e.NODE_ENV === 'production' && !e.SESSION_SECRET) problems.push('SESSION_SECRET: required in production (32+ chars)');
  if (e.NODE_ENV === 'production' && e.PASSWORD_HASH_COST === 'test') problems.push('PASSWORD_HASH_COST: `test` is refused in production');
  if (problems.length) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/$/, '') : null,
    logLevel: e.LOG_LEVEL,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    databaseSchema: e.DATABASE_SCHEMA ?? null,
    embeddedDb: e.EMBEDDED_DB,
    embeddedSyncCommit: e.EMBEDDED_DB_SYNC_COMMIT === 'on',
    sessionSecret: e.SESSION_SECRET ?? null,
    sessionTtlMs: e.SESSION_TTL_DAYS * 86_400_000,
    trustProxy,
    bodyLimit: e.BODY_LIMIT_BYTES,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET && e.STRIPE_PRICE_PRO_MONTHLY && e.STRIPE_PRICE_PRO_YEARLY
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiBase: e.STRIPE_API_BASE ?? null,
            prices: { proMonthly: e.STRIPE_PRICE_PRO_MONTHLY, proYearly: e.STRIPE_PRICE_PRO_YEARLY },
          }
        : null,
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : null,
    oauth: {
      google: pair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET),
      github: pair(e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET),
      apple: pair(e.APPLE_CLIENT_ID, e.APPLE_CLIENT_SECRET),
      oidc:
        e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
          ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, name: e.OIDC_NAME }
          : null,
    },
    appVersion: e.APP_VERSION,
    appEnvironment: e.APP_ENVIRONMENT,
    jobsEnabled: e.JOBS_ENABLED,
    jobLeaseMs: Math.round(e.JOB_LEASE_SECONDS * 1000),
    passwordHashCost: e.PASSWORD_HASH_COST,
    uploadExpiryMs: Math.round(e.UPLOAD_EXPIRY_HOURS * 3_600_000),
    realtimeHeartbeatMs: Math.round(e.REALTIME_HEARTBEAT_SECONDS * 1000),
    agentLeaseMs: e.AGENT_LEASE_SECONDS * 1000,
    training: { startWindowMs: e.TRAINING_START_WINDOW_SECONDS * 1000, silenceWindowMs: e.TRAINING_SILENCE_WINDOW_SECONDS * 1000 },
    exportWorker: { enabled: (e.EXPORT_WORKER ?? (e.NODE_ENV === 'test' ? 'off' : 'auto')) === 'auto', yolo: e.EXPORT_WORKER_YOLO },
    roboflow: { apiUrl: e.ROBOFLOW_API_URL.replace(/\/$/, ''), exportTimeoutMs: e.ROBOFLOW_EXPORT_TIMEOUT_MS, pollMs: e.ROBOFLOW_POLL_MS },
    sentry: e.SENTRY_DSN ? { dsn: e.SENTRY_DSN, webDsn: e.SENTRY_WEB_DSN ?? e.SENTRY_DSN } : null,
    webhooks: { timeoutMs: e.WEBHOOK_TIMEOUT_MS, maxAttempts: e.WEBHOOK_MAX_ATTEMPTS, retryBaseMs: e.WEBHOOK_RETRY_BASE_MS },
  };
}
