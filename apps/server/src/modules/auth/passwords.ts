import { hash, verify } from '@node-rs/argon2';

// argon2id (the library default algorithm) with OWASP's minimum memory/time settings (ADR 0002);
// PASSWORD_HASH_COST=test (test servers only, refused in production) makes sign-ups cheap in the
// suites. verify reads the cost from the hash itself, so either kind of hash still verifies.
const COSTS = {
  owasp: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  test: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
} as const;

export type PasswordHashCost = keyof typeof COSTS;

export const hashPassword = (password: string, cost: PasswordHashCost) => hash(password, COSTS[cost]);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A real hash to compare against when the account does not exist, so timing does not leak it. */
const dummies: Partial<Record<PasswordHashCost, string>> = {};
export async function burnPasswordCheck(password: string, cost: PasswordHashCost) {
  const dummy = (dummies[cost] ??= await hashPassword('not-a-real-password-0', cost));
  await verifyPassword(dummy, password);
}
