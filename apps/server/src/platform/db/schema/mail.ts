/** Tables of platform/mail (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    error: text('error'),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt)],
);
