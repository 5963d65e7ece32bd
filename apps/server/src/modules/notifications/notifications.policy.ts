import { canOnPersonal, type Action } from '@sightline/contracts';
import { errors } from '../../platform/http/errors.js';

/**
 * Notification records are personal (permissions.ts, PERSONAL_PERMISSIONS; ADR 0028): only their
 * recipient reads or marks them. Anyone else's record is the same 404 as a missing one, so ids
 * reveal nothing.
 */
export const notificationsPolicy = {
  check<T extends { userId: string }>(callerId: string, row: T | null, action: Action): T {
    if (!row || !canOnPersonal('notification', row.userId === callerId, action)) throw errors.notFound('Notification');
    return row;
  },
};
