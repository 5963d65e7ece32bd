import type { RealtimeEvent, RealtimeEventData, RealtimeEventName, Topic } from '@sightline/contracts';
import type { Database } from '../db/client.js';
import { newId } from '../ids.js';

export type DomainEvent = RealtimeEvent;
type Handler = (e: DomainEvent) => void;

const CHANNEL = 'sightline_events';
/** NOTIFY payloads are capped at 8000 bytes; bigger events travel without data (clients refetch). */
const MAX_PAYLOAD = 7900;

/**
 * Domain events fan out through PostgreSQL NOTIFY so every server instance on the same database
 * delivers them to its own sockets. Services publish after their transaction commits.
 */
export class EventBus {
  private handlers = new Set<Handler>();
  private unlisten: (() => Promise<void>) | null = null;
  readonly instanceId = newId();

  constructor(private readonly database: Database) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(CHANNEL, (payload) => {
      let parsed: DomainEvent;
      try {
        parsed = JSON.parse(payload) as DomainEvent;
      } catch {
        return;
      }
      for (const h of this.handlers) h(parsed);
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
  }

  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Topics come from `topics.*` and each event's payload follows its schema in the contract's realtime catalogue. */
  async publish<E extends RealtimeEventName>(topic: Topic, event: E, data: RealtimeEventData<E>): Promise<void> {
    let payload = JSON.stringify({ topic, event, data });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = JSON.stringify({ topic, event, data: null, truncated: true });
    await this.database.notify(CHANNEL, payload);
  }
}
