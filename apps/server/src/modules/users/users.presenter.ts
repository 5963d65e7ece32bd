import type { User } from '@sightline/contracts';
import type { UserRow } from './users.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The only row → JSON boundary for users; secrets (password hash) never leave here. `usage` is the
 * spec §3 "usage counters per collection" (items not in the trash); left empty where the caller did
 * not count them (admin lists, realtime user.updated, where counting each row would cost a query).
 */
export function presentUser(row: UserRow, providers: string[] = [], usage: Record<string, number> = {}): User {
  return {
    id: row.id,
    uid: row.id,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    image: row.image,
    plan: row.plan as User['plan'],
    roles: row.roles,
    paymentCustomerId: row.paymentCustomerId,
    usage,
    wallet: { balance: row.walletBalance },
    onboard: row.onboard,
    feedback:
      row.feedbackCreatedAt !== null
        ? {
            rating: row.feedbackRating,
            review: row.feedbackReview ?? '',
            dates: { created: iso(row.feedbackCreatedAt), updated: iso(row.feedbackUpdatedAt) },
          }
        : null,
    providers: [...(row.passwordHash ? ['password'] : []), ...providers],
    dates: { created: row.createdAt.toISOString(), deleted: iso(row.deletedAt), lastLogin: iso(row.lastLoginAt) },
  };
}

/** Public view of another user (owner badges, shared items). */
export function presentPublicUser(row: UserRow) {
  return { uid: row.id, username: row.username, image: row.image };
}
