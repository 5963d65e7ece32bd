/** Tables of modules/users (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, boolean, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    passwordHash: text('password_hash'),
    emailVerifiedAt: ts('email_verified_at'),
    image: text('image').notNull(),
    plan: text('plan').notNull().default('free'),
    roles: text('roles').array().notNull().default([]),
    paymentCustomerId: text('payment_customer_id'),
    walletBalance: bigint('wallet_balance', { mode: 'number' }).notNull().default(0),
    walletHeld: bigint('wallet_held', { mode: 'number' }).notNull().default(0),
    onboard: boolean('onboard').notNull().default(false),
    feedbackRating: integer('feedback_rating'),
    feedbackReview: text('feedback_review'),
    feedbackCreatedAt: ts('feedback_created_at'),
    feedbackUpdatedAt: ts('feedback_updated_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
    lastLoginAt: ts('last_login_at'),
    /** set by an admin: no sign-in, sessions and API keys stop working (migration 0015) */
    disabledAt: ts('disabled_at'),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_username_key').on(t.username)],
);

export const settings = pgTable('settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  roboflowUploadAllWeights: boolean('roboflow_upload_all_weights').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
