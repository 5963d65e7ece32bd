import type { WebhookScope } from '@sightline/contracts';
import { errors } from '../../platform/http/errors.js';

/** Who is acting: the signed-in user's id and roles. */
export interface Actor {
  id: string;
  roles: string[];
}

const isAdmin = (actor: Actor) => actor.roles.includes('admin');

/**
 * Webhooks are private to their owner (their URLs and deliveries may reveal internal systems), so
 * anyone else's webhook is the same 404 as a missing one. Admins manage every webhook, and only
 * they may register an instance-wide one (it hears events of every user's items).
 */
export const webhooksPolicy = {
  manage<T extends { userId: string }>(actor: Actor, row: T | null): T {
    if (!row || (row.userId !== actor.id && !isAdmin(actor))) throw errors.notFound('Webhook');
    return row;
  },
  create(actor: Actor, scope: WebhookScope) {
    if (scope === 'instance' && !isAdmin(actor)) throw errors.forbidden('Only admins can register instance-wide webhooks');
  },
};
