import type { ApiKey } from '@sightline/contracts';
import type { AppError } from '../../platform/http/errors.js';

/** The JSON shapes the Platform client reads (platform-protocol.md §3–5). */

interface AccountUser {
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  plan: string;
  walletBalance: number;
}

const displayName = (u: AccountUser) => [u.firstName, u.lastName].filter(Boolean).join(' ');

/** 8.4.115–8.4.146 check GET /api/settings at login. */
export const presentSettings = (u: AccountUser) => ({ username: u.username, name: displayName(u), email: u.email });

/** The SDK generation checks GET /api/account/summary at login. */
export const presentAccountSummary = (u: AccountUser, counts: { projects: number; datasets: number; models: number }) => ({
  username: u.username,
  name: displayName(u),
  accountType: 'personal',
  plan: u.plan,
  creditsCents: Math.floor(u.walletBalance / 10_000),
  counts,
  teams: [],
});

export const presentApiKeys = (keys: ApiKey[]) => ({ keys: keys.map((k) => ({ keyId: k.id, name: k.name, keyPrefix: k.prefix, createdAt: k.dates.created })) });

/** Platform clients print body.error; the SDK generation only parses application/json bodies. */
export const presentError = (err: AppError) => ({ error: err.message, code: err.code, ...(err.details !== undefined ? { details: err.details } : {}) });
