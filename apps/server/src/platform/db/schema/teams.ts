/** Tables of modules/teams (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Teams (migration 0007_teams). */
export const teams = pgTable('teams', {
  id: text('id').primaryKey(),
  ownerId: text('owner_id').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  imagePath: text('image_path'),
  imageBytes: bigint('image_bytes', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

export type TeamRole = 'owner' | 'admin' | 'member' | 'labeler' | 'viewer';
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: text('team_id').notNull(),
    userId: text('user_id').notNull(),
    role: text('role').$type<TeamRole>().notNull(),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

export const teamInvites = pgTable('team_invites', {
  id: text('id').primaryKey(),
  teamId: text('team_id').notNull(),
  email: text('email').notNull(),
  role: text('role').$type<Exclude<TeamRole, 'owner'>>().notNull(),
  invitedBy: text('invited_by').notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
  acceptedAt: ts('accepted_at'),
  rejectedAt: ts('rejected_at'),
  cancelledAt: ts('cancelled_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// ---- GPU agents, agent jobs and model exports (migration 0012)
