import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { DomainEventData, DomainEventName } from '@sightline/contracts';

/**
 * A business change, named and shaped by the catalogue (packages/contracts/src/domain-events.ts):
 * who owns the item (user id, or null for instance-wide changes such as feature flags), and the
 * facts listeners need. For the webhook subset, `data` is exactly what receivers get.
 */
export interface DomainEventOf<N extends DomainEventName> {
  name: N;
  ownerId: string | null;
  data: DomainEventData<N>;
}
/** What a catch-all listener receives: any event of the catalogue, its data loosely typed. */
export interface DomainEvent {
  name: DomainEventName;
  ownerId: string | null;
  data: Record<string, unknown>;
}
export type DomainEventListener = (event: DomainEvent) => Promise<void> | void;
type Listener = { name: DomainEventName | null; handle: (event: DomainEvent) => Promise<void> | void };

/** The events emitted inside one `db.transaction(…)`: delivered after it commits, dropped if it rolls back. */
interface Pending {
  open: boolean;
  deliveries: (() => Promise<void>)[];
}
const transactionScope = new AsyncLocalStorage<Pending>();
const WRAPPED = Symbol('domain-events.after-commit');

type Transactional = { transaction: (...args: never[]) => Promise<unknown> };

/**
 * Wraps `db.transaction` (once per handle) so that every transaction opened through it holds back
 * the events emitted inside it: they are delivered once the transaction has committed, before the
 * `transaction(…)` promise resolves, and dropped when it throws (ADR 0031). A transaction opened
 * inside another hands its events to the outer one when it commits. Savepoints (`tx.transaction`)
 * are not wrapped: their events follow the outermost transaction.
 */
export function deliverAfterCommit(db: Transactional): void {
  const target = db as Transactional & { [WRAPPED]?: true };
  if (target[WRAPPED]) return;
  const original = target.transaction.bind(target) as (...args: unknown[]) => Promise<unknown>;
  const wrapped = async (...args: unknown[]) => {
    const outer = transactionScope.getStore();
    const pending: Pending = { open: true, deliveries: [] };
    let result: unknown;
    try {
      result = await transactionScope.run(pending, () => original(...args));
    } catch (err) {
      pending.open = false;
      pending.deliveries = [];
      throw err;
    }
    pending.open = false;
    if (outer?.open) outer.deliveries.push(...pending.deliveries);
    else for (const deliver of pending.deliveries) await deliver();
    return result;
  };
  Object.defineProperty(target, 'transaction', { value: wrapped, configurable: true, writable: true });
  Object.defineProperty(target, WRAPPED, { value: true });
}

/**
 * The internal event hook (ADR 0031). Services emit one typed event per business change; listeners
 * that modules own (`<module>.listeners.ts`, registered when the app is built) turn it into realtime
 * messages, analytics, audit entries, webhooks and notifications. Services never import their
 * listeners, so no module cycle appears; platform imports no module.
 *
 * Delivery: outside a transaction at once; inside one (see deliverAfterCommit) after it commits.
 * Listeners run one after the other in registration order and are awaited, so a request answers
 * after its side effects are written. Emitting never throws: the change is committed, and a
 * listener's failure is logged, not turned into a failed request.
 */
export class DomainEvents {
  private listeners: Listener[] = [];

  /** `db`: the handle whose transactions hold events back until they commit (deliverAfterCommit). */
  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    db?: Transactional,
  ) {
    if (db) deliverAfterCommit(db);
  }

  /** `on(name, handler)`: one event of the catalogue, typed; `on(handler)`: every event (catch-all). */
  on<N extends DomainEventName>(name: N, handler: (event: DomainEventOf<N>) => Promise<void> | void): () => void;
  on(handler: DomainEventListener): () => void;
  on(nameOrHandler: DomainEventName | DomainEventListener, handler?: (event: never) => Promise<void> | void): () => void {
    const listener: Listener =
      typeof nameOrHandler === 'function'
        ? { name: null, handle: nameOrHandler }
        : { name: nameOrHandler, handle: handler as (event: DomainEvent) => Promise<void> };
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Emits one event: delivered now, or after the enclosing transaction commits. */
  async emit<N extends DomainEventName>(name: N, ownerId: string | null, data: DomainEventData<N>): Promise<void> {
    const event = { name, ownerId, data } as DomainEvent;
    const pending = transactionScope.getStore();
    if (pending?.open) {
      pending.deliveries.push(() => this.deliver(event));
      return;
    }
    await this.deliver(event);
  }

  private async deliver(event: DomainEvent): Promise<void> {
    for (const listener of this.listeners) {
      if (listener.name !== null && listener.name !== event.name) continue;
      try {
        await listener.handle(event);
      } catch (err) {
        this.log.warn({ err, event: event.name }, 'domain event listener failed');
      }
    }
  }
}
