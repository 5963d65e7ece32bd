import { errors } from '../../platform/http/errors.js';

/**
 * Integrations are private to their owner: nobody else may see that they exist, so every miss
 * (absent or someone else's) is the same 404.
 */
export const integrationsPolicy = {
  own<T extends { userId: string }>(userId: string, row: T | null, what: string): T {
    if (!row || row.userId !== userId) throw errors.notFound(what);
    return row;
  },
};
