/** Tables of modules/notifications (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { NotificationKind } from '@sightline/contracts';
import { ts } from './columns.js';

/** Notification records (migration 0025, ADR 0028). */
export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    kind: text('kind').$type<NotificationKind>().notNull(),
    subjectKind: text('subject_kind').$type<'team' | 'dataset' | 'model' | 'user'>().notNull(),
    subjectId: text('subject_id').notNull(),
    subjectName: text('subject_name').notNull().default(''),
    detail: text('detail'),
    inviteId: text('invite_id'),
    dedupeKey: text('dedupe_key'),
    readAt: ts('read_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notifications_user_dedupe_idx').on(t.userId, t.dedupeKey), index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id)],
);
