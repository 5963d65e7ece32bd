import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEventName } from '@sightline/contracts';

/** A business event after its change committed: who owns the item, and what outsiders may see of it. */
export interface DomainEvent {
  name: WebhookEventName;
  /** the owner of the item (user id): webhooks of that user, and instance-wide ones, hear it */
  ownerId: string;
  data: Record<string, unknown>;
}
export type DomainEventListener = (event: DomainEvent) => Promise<void>;

/**
 * The internal event hook: services emit (datasets, training, exports, models), listeners registered
 * when the app is built consume (webhooks). Services never import their listeners, so no module
 * cycle appears; platform imports no module. Emitting never throws: the caller's change is already
 * committed, and a listener's failure is logged, not turned into a failed request.
 */
export class DomainEvents {
  private listeners: DomainEventListener[] = [];

  constructor(private readonly log: Pick<FastifyBaseLogger, 'warn'>) {}

  on(listener: DomainEventListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  async emit(name: WebhookEventName, ownerId: string, data: Record<string, unknown>): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener({ name, ownerId, data });
      } catch (err) {
        this.log.warn({ err, event: name }, 'domain event listener failed');
      }
    }
  }
}
