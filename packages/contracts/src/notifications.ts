import { z } from 'zod';
import { inviteRoleSchema } from './teams.js';

/**
 * Notification records (ADR 0028): what the header bell counts and /notifications lists. They are
 * made on the server from domain events (datasets, training, exports) and from team invites; each
 * is addressed to one user, who alone reads or marks it (permissions.ts, PERSONAL_PERMISSIONS).
 */
export const NOTIFICATION_KINDS = [
  'team.invite',
  'dataset.processed',
  'dataset.failed',
  'training.completed',
  'training.failed',
  'export.succeeded',
  'upgrade.requested',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);

/** Records older than this are removed (read or not); a pending invite is listed from its invite while it waits. */
export const NOTIFICATION_RETENTION_DAYS = 90;
export const NOTIFICATIONS_PAGE_MAX = 100;

export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  read: z.boolean(),
  created: z.string(),
  /** what it is about: its name as it was when the record was made */
  subject: z.object({ kind: z.enum(['team', 'dataset', 'model', 'user']), id: z.string(), name: z.string() }),
  /** a failure's reason in the server's words, else null */
  detail: z.string().nullable(),
  /** a team invite: who invited, as which role, until when, and whether it still waits for an answer */
  invite: z.object({ role: inviteRoleSchema, invitedBy: z.string(), expires: z.string(), pending: z.boolean() }).nullable(),
  /** the app page it opens */
  path: z.string(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

/** `GET /v1/notifications`: newest first; `cursor` continues after the last item of a page. */
export const notificationsQuery = z.object({
  cursor: z
    .string()
    .max(200)
    .regex(/^[\w-]+$/, 'cursor must be the nextCursor of a previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_MAX).default(20),
  unread: z.enum(['true', 'false']).optional(),
});
export type NotificationsQuery = z.input<typeof notificationsQuery>;
export const notificationsPageSchema = z.object({ items: z.array(notificationSchema), nextCursor: z.string().nullable(), unread: z.number().int() });
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;
export const notificationCountSchema = z.object({ unread: z.number().int() });
export type NotificationCount = z.infer<typeof notificationCountSchema>;
