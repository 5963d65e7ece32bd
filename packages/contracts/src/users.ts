import { z } from 'zod';
import { safeName } from './names.js';
import { PLANS } from './constants.js';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid email address' }))
  .pipe(z.string().max(254));
/** At least 8 characters with a letter and a digit; at most 128 (argon2 input stays small). */
export const passwordSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters')
  .refine((p) => /[A-Za-z]/.test(p) && /\d/.test(p), 'Password must contain a letter and a digit');
export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(32, 'Username must be at most 32 characters')
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_-]*$/, 'Use letters, digits, - and _ only');
export const firstNameSchema = safeName(z.string().trim().min(1, 'First name is required').max(64));

export const feedbackSchema = z.object({
  rating: z.number().int().min(1).max(5).nullable(),
  review: z.string().trim().max(500),
  dates: z.object({ created: z.string().nullable(), updated: z.string().nullable() }),
});

export const userSchema = z.object({
  id: z.string(),
  uid: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  email: z.string(),
  emailVerified: z.boolean(),
  image: z.string(),
  plan: z.enum(PLANS),
  roles: z.array(z.string()),
  paymentCustomerId: z.string().nullable(),
  usage: z.record(z.string(), z.number()),
  wallet: z.object({ balance: z.number() }),
  onboard: z.boolean(),
  feedback: feedbackSchema.nullable(),
  providers: z.array(z.string()),
  dates: z.object({
    created: z.string(),
    deleted: z.string().nullable(),
    lastLogin: z.string().nullable(),
  }),
});
export type User = z.infer<typeof userSchema>;

export const signUpBody = z.object({
  email: emailSchema,
  password: passwordSchema,
  username: usernameSchema,
  firstName: firstNameSchema,
  /** The team invite link the sign-up comes from (its team and token): an invite sent to this address proves it. */
  invite: z.object({ team: z.string().max(40), token: z.string().min(10).max(200) }).optional(),
});
export const signInBody = z.object({ email: emailSchema, password: z.string().min(1, 'Password is required').max(128) });
export const verifyBody = z.object({ token: z.string().min(10).max(200) });
export const resendVerificationBody = z.object({ email: emailSchema });
export const passwordRequestBody = z.object({ email: emailSchema });
export const passwordResetBody = z.object({ token: z.string().min(10).max(200), password: passwordSchema });
export const updatePasswordBody = z.object({ currentPassword: z.string().min(1).max(128), newPassword: passwordSchema });
export const updateEmailBody = z.object({ email: emailSchema, password: z.string().min(1).max(128) });
export const updateProfileBody = z
  .object({
    firstName: firstNameSchema,
    lastName: safeName(z.string().trim().max(64)).nullable(),
    username: usernameSchema,
    onboard: z.boolean(),
  })
  .partial();
export const updateFeedbackBody = z.object({
  rating: z.number().int().min(1).max(5).nullable(),
  review: z.string().trim().max(500),
});
export const deleteAccountBody = z.object({ password: z.string().max(128).optional() });

/** The auth result codes of spec §4 ("signup-successful" / "signin-successful"). */
export const authResultSchema = z.object({
  user: userSchema,
  result: z.enum(['signup-successful', 'signin-successful']),
  verificationRequired: z.boolean(),
});

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  dates: z.object({ created: z.string(), lastUsed: z.string().nullable() }),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const createApiKeyBody = z.object({ name: safeName(z.string().trim().min(1).max(64)).default('API key') });
/** Only the create response carries the secret, in both spellings. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string(), legacyKey: z.string() });

export const providerSchema = z.object({ id: z.string(), name: z.string(), kind: z.enum(['google', 'github', 'apple', 'oidc']) });

export const remoteConfigSchema = z.object({
  flags: z.object({ cloudTraining: z.boolean(), teamsCollaboration: z.boolean(), walletTopUp: z.boolean(), dedicatedInference: z.boolean() }),
  version: z.string(),
  environment: z.string(),
  providers: z.array(providerSchema),
  mail: z.object({ enabled: z.boolean(), verificationRequired: z.boolean() }),
  /** Error monitoring for the web app (SENTRY_DSN or SENTRY_WEB_DSN); absent when off. */
  monitoring: z.object({ dsn: z.string(), tracesSampleRate: z.number(), environment: z.string(), release: z.string() }).nullish(),
});
export type RemoteConfig = z.infer<typeof remoteConfigSchema>;
export const updateFlagsBody = z
  .object({ cloudTraining: z.boolean(), teamsCollaboration: z.boolean(), walletTopUp: z.boolean(), dedicatedInference: z.boolean() })
  .partial();

export const presenceSchema = z.object({ connected: z.string().nullable(), platform: z.literal('web'), formatted: z.string().nullable(), online: z.boolean() });
/**
 * Spec §7 presence/guests: signed-out visitors with the web app open (GET /v1/presence/guests, admins):
 * how many sockets, and when the longest-open one connected.
 */
export const guestPresenceSchema = z.object({
  online: z.number().int(),
  connected: z.string().nullable(),
  formatted: z.string().nullable(),
  platform: z.literal('web'),
});
export type GuestPresence = z.infer<typeof guestPresenceSchema>;

/** A mail as the outbox keeps it (every mail, sent or not; with no SMTP the only place to read it). */
export const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created: z.string(),
  sent: z.string().nullable(),
  error: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;
/** A page of the outbox, newest first (ADR 0042: keyset; `nextCursor` is null on the last page). */
export const outboxSchema = z.object({ mailEnabled: z.boolean(), mails: z.array(outboxMailSchema), nextCursor: z.string().nullable() });
export const outboxQuerySchema = z.object({
  /** the `nextCursor` of the previous page */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type OutboxQuery = z.infer<typeof outboxQuerySchema>;
export type Outbox = z.infer<typeof outboxSchema>;

/**
 * `GET /v1/admin/users`: every account, newest first, in keyset pages (ADR 0042). `q` is the same prefix
 * search as the admin's user search (email, username, first name, or an exact id).
 */
export const adminUserListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  /** the `nextCursor` of the previous page */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;
export const adminUserListSchema = z.object({ items: z.array(userSchema), nextCursor: z.string().nullable() });
export type AdminUserList = z.infer<typeof adminUserListSchema>;
