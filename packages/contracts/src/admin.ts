import { z } from 'zod';
import { PLANS } from './constants.js';

/**
 * The admin area: users, analytics, jobs, feedback and the append-only audit log (ADR 0015).
 * Every `/v1/admin/*` route is for admins only, enforced by the server.
 */

// ---- audit log

/** Actions written to the audit log. `user.*` and `auth.*`/`account.*`/`api_key.*` are security events. */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'account.password_change',
  'account.password_reset',
  'account.email_change',
  'account.delete',
  'api_key.create',
  'api_key.revoke',
  'user.role_grant',
  'user.role_revoke',
  'user.plan_change',
  'user.disable',
  'user.enable',
  'user.delete',
  'user.restore',
  'user.sign_out_everywhere',
  'item.delete',
  'item.restore',
  'item.share',
  'dataset.version_save',
  'dataset.version_delete',
  'dataset.version_restore',
  /** an edit of a dataset's images or classes (ADR 0037) */
  'dataset.edit',
  'trash.empty',
  'team.delete',
  'team.invite',
  'team.invite_accept',
  'team.invite_reject',
  'team.invite_cancel',
  'team.member_remove',
  'team.member_role',
  'team.leave',
  'team.transfer',
  'team.item_add',
  'team.item_remove',
  'dataset.suggestions_accept',
  'dataset.suggestions_reject',
  'job.retry',
  'job.cancel',
  'admin.action',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a user sees of their own account in Settings. */
export const SECURITY_ACTIONS: readonly AuditAction[] = AUDIT_ACTIONS.filter((a) => /^(auth|account|api_key|user)\./.test(a));

export const auditEntrySchema = z.object({
  id: z.string(),
  seq: z.number(),
  time: z.string(),
  action: z.string(),
  outcome: z.enum(['success', 'failure']),
  actor: z.object({ id: z.string().nullable(), label: z.string().nullable() }),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable(), label: z.string().nullable() }),
  userId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = z.object({
  action: z.string().max(64).optional(),
  actor: z.string().max(64).optional(),
  target: z.string().max(64).optional(),
  from: z.iso.datetime().optional(),
  to: z.iso.datetime().optional(),
  /** keyset: entries older than this sequence number */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), next: z.number().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;

// ---- users

export const ADMIN_USER_SORTS = ['created', 'email', 'username', 'lastLogin'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];

export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  sort: z.enum(ADMIN_USER_SORTS).default('created'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  /** opaque cursor of the previous page */
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const adminUserRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string(),
  plan: z.enum(PLANS),
  roles: z.array(z.string()),
  created: z.string(),
  lastLogin: z.string().nullable(),
  deleted: z.string().nullable(),
  disabled: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;
export const adminUsersPageSchema = z.object({ users: z.array(adminUserRowSchema), next: z.string().nullable() });
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

const collectionUsage = z.object({ count: z.number(), trashed: z.number(), bytes: z.number(), trashedBytes: z.number() });
export const adminUserDetailSchema = adminUserRowSchema.extend({
  storage: z.object({ datasets: collectionUsage, models: collectionUsage, projects: collectionUsage, total: z.number() }),
  apiKeys: z.number(),
  sessions: z.number(),
  inference: z.object({ thisMonth: z.number(), total: z.number() }),
  teams: z.number(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminRoleBody = z.object({ role: z.literal('admin'), grant: z.boolean() });
export const adminReasonBody = z.object({ reason: z.string().trim().max(300).optional() });

// ---- analytics

export const analyticsQuerySchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  interval: z.enum(['day', 'week']).default('day'),
  names: z.string().max(2000).optional(),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;
export const analyticsSeriesSchema = z.object({
  buckets: z.array(z.string()),
  series: z.array(z.object({ name: z.string(), counts: z.array(z.number()) })),
  activeUsers: z.array(z.number()),
  signUps: z.array(z.number()),
  totals: z.array(z.object({ name: z.string(), count: z.number() })),
});
export type AnalyticsSeries = z.infer<typeof analyticsSeriesSchema>;
export const analyticsTopSchema = z.object({
  models: z.array(z.object({ id: z.string(), name: z.string().nullable(), calls: z.number() })),
  datasets: z.array(z.object({ id: z.string(), name: z.string().nullable(), calls: z.number() })),
});
export type AnalyticsTop = z.infer<typeof analyticsTopSchema>;

// ---- jobs

export const adminJobSchema = z.object({
  id: z.string(),
  source: z.enum(['queue', 'agent']),
  kind: z.string(),
  status: z.string(),
  attempts: z.number(),
  maxAttempts: z.number(),
  lastError: z.string().nullable(),
  logTail: z.array(z.string()),
  userId: z.string().nullable(),
  /** Names of what the job works on, for people (ids stay above for links and support). */
  user: z.object({ id: z.string(), username: z.string() }).nullable(),
  model: z.object({ id: z.string(), name: z.string() }).nullable(),
  dataset: z.object({ id: z.string(), name: z.string() }).nullable(),
  created: z.string(),
  updated: z.string(),
  canRetry: z.boolean(),
  canCancel: z.boolean(),
});
/** A page of jobs of both sources, newest update first (ADR 0042: keyset). */
export const adminJobsPageSchema = z.object({ items: z.array(adminJobSchema), nextCursor: z.string().nullable() });
export type AdminJobsPage = z.infer<typeof adminJobsPageSchema>;
export type AdminJob = z.infer<typeof adminJobSchema>;
export const adminJobsQuerySchema = z.object({
  status: z.enum(['active', 'failed', 'all']).default('all'),
  /** the `nextCursor` of the previous page */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AdminJobsQuery = z.infer<typeof adminJobsQuerySchema>;

// ---- feedback

/**
 * A page of feedback, newest update first (ADR 0042: keyset). The summary (average, count, the
 * 1–5 distribution) is over all feedback and comes with the first page only: null on later pages.
 */
export const adminFeedbackSchema = z.object({
  average: z.number().nullable(),
  count: z.number().nullable(),
  distribution: z.array(z.number()).nullable(),
  nextCursor: z.string().nullable(),
  entries: z.array(
    z.object({
      userId: z.string(),
      username: z.string(),
      email: z.string(),
      rating: z.number().nullable(),
      review: z.string(),
      created: z.string().nullable(),
      updated: z.string().nullable(),
    }),
  ),
});
export type AdminFeedback = z.infer<typeof adminFeedbackSchema>;
export const adminFeedbackQuerySchema = z.object({
  /** the `nextCursor` of the previous page */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AdminFeedbackQuery = z.infer<typeof adminFeedbackQuerySchema>;
