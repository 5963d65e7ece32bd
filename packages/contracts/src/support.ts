import { z } from 'zod';
import { planLimitsSchema, planSchema } from './billing.js';

/**
 * Reaching the admins (ADR 0030): an upgrade request a user files when payments are off (or for a
 * plan checkout does not sell), the admins' list with one click to grant it, and the contact
 * address an admin sets for Support's Contact card.
 */
export const UPGRADE_REQUEST_STATUSES = ['open', 'granted', 'dismissed'] as const;
export type UpgradeRequestStatus = (typeof UPGRADE_REQUEST_STATUSES)[number];

/** `POST /v1/billing/upgrade-requests`: the plan asked for and an optional note to the admins. */
export const upgradeRequestBody = z.object({
  plan: z.enum(['pro', 'enterprise']),
  message: z.string().trim().max(1000).default(''),
});

export const upgradeRequestSchema = z.object({
  id: z.string(),
  plan: planSchema,
  /** The plan the user had when asking. */
  fromPlan: planSchema,
  message: z.string(),
  status: z.enum(UPGRADE_REQUEST_STATUSES),
  created: z.string(),
  decided: z.string().nullable(),
});
export type UpgradeRequest = z.infer<typeof upgradeRequestSchema>;

/** `GET /v1/billing/upgrade-requests/mine`: the caller's open request, if any. */
export const myUpgradeRequestSchema = z.object({ request: upgradeRequestSchema.nullable() });

/** An admin's row: the request and who asked. */
export const adminUpgradeRequestSchema = upgradeRequestSchema.extend({
  user: z.object({ uid: z.string(), username: z.string(), email: z.string(), plan: planSchema }),
  decidedBy: z.object({ uid: z.string(), username: z.string() }).nullable(),
});
export type AdminUpgradeRequest = z.infer<typeof adminUpgradeRequestSchema>;

export const adminUpgradeRequestsQuery = z.object({
  status: z.enum(UPGRADE_REQUEST_STATUSES).default('open'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
/** The list and the number of open requests (the admin tab's count). */
export const adminUpgradeRequestListSchema = z.object({ requests: z.array(adminUpgradeRequestSchema), open: z.number().int() });
export type AdminUpgradeRequestList = z.infer<typeof adminUpgradeRequestListSchema>;

/** The admin contact shown on Support's Contact card and where plan pages say "ask your admin". */
export const supportContactSchema = z.object({ email: z.string().nullable() });
export type SupportContact = z.infer<typeof supportContactSchema>;
export const supportContactBody = z.object({ email: z.union([z.string().trim().email().max(254), z.literal(''), z.null()]).transform((v) => (v ? v : null)) });

/** `GET /v1/billing/plans`: every plan's limits on this server (admin overrides applied), for the comparison. */
export const planOfferSchema = z.object({ plan: planSchema, limits: planLimitsSchema });
export type PlanOffer = z.infer<typeof planOfferSchema>;
