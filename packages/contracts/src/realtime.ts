import { z } from 'zod';
import { presenceSchema, remoteConfigSchema, userSchema } from './users.js';

/**
 * Realtime wire format on `/v1/realtime`.
 * client → server: {type:'subscribe'|'unsubscribe', topic} | {type:'ping'}
 * server → client: {type:'event', topic, event, data} | {type:'subscribed'|'error', topic?, code?} | {type:'pong'}
 *
 * The catalogue below is the one place topics and events are spelled: publishers on the server
 * and subscribers in the web app build topics with `topics.*` and read payloads through
 * `realtimeEventSchemas`.
 */
export const topics = {
  /** The signed-in user's own record (`user.updated`, `user.deleted`). */
  user: (uid: string) => `user:${uid}` as const,
  userDatasets: (uid: string) => `user:${uid}:datasets` as const,
  userModels: (uid: string) => `user:${uid}:models` as const,
  userProjects: (uid: string) => `user:${uid}:projects` as const,
  /** The user's notification records changed (`notifications.changed` with the unread count; ADR 0028). */
  userNotifications: (uid: string) => `user:${uid}:notifications` as const,
  dataset: (id: string) => `dataset:${id}` as const,
  model: (id: string) => `model:${id}` as const,
  project: (id: string) => `project:${id}` as const,
  presence: (uid: string) => `presence:${uid}` as const,
  /** A team's record and membership (members only). */
  team: (id: string) => `team:${id}` as const,
  /** Remote config (feature flags); every signed-in user may listen. */
  config: () => 'config' as const,
} as const;
export type Topic = ReturnType<(typeof topics)[keyof typeof topics]>;
/** The entity kind a topic is about: `model:<id>` → 'model', `user:<uid>:datasets` → 'user'. */
export const topicKind = (topic: string) => topic.split(':')[0]!;

/** Item topics a module authorises (`model:<id>`, …): who may read the item may listen. */
export const ITEM_TOPIC_KINDS = ['model', 'dataset', 'project', 'team'] as const;
export type ItemTopicKind = (typeof ITEM_TOPIC_KINDS)[number];
export type ParsedTopic =
  /** `user:<uid>` and every `user:<uid>:<rest>` (`rest` null for the user's own record). */
  { kind: 'user'; userId: string; rest: string | null } | { kind: 'presence'; userId: string } | { kind: 'config' } | { kind: ItemTopicKind; id: string };

/**
 * The one reading of a topic string (the inverse of `topics.*`): the server's authorisers get the
 * parsed id, never slice strings themselves. Null for anything `topics.*` does not build.
 */
export function parseTopic(topic: string): ParsedTopic | null {
  if (topic === topics.config()) return { kind: 'config' };
  const colon = topic.indexOf(':');
  if (colon <= 0) return null;
  const kind = topic.slice(0, colon);
  const rest = topic.slice(colon + 1);
  if (!rest) return null;
  if (kind === 'user') {
    const next = rest.indexOf(':');
    return next < 0 ? { kind, userId: rest, rest: null } : next > 0 ? { kind, userId: rest.slice(0, next), rest: rest.slice(next + 1) } : null;
  }
  if (kind === 'presence') return { kind, userId: rest };
  return (ITEM_TOPIC_KINDS as readonly string[]).includes(kind) ? { kind: kind as ItemTopicKind, id: rest } : null;
}

const idOnly = z.object({ id: z.string() });
const datasetEvent = z.object({ id: z.string(), status: z.string() });
const modelEvent = z.object({ id: z.string(), projectId: z.string().nullable() });

/** One zod schema per event name: the payload every publisher sends under that name. */
export const realtimeEventSchemas = {
  'user.updated': userSchema,
  'user.deleted': idOnly,
  'presence.updated': presenceSchema,
  'config.updated': z.object({ flags: remoteConfigSchema.shape.flags }),
  'project.created': idOnly,
  'project.updated': idOnly,
  'project.deleted': idOnly,
  'project.restored': idOnly,
  'dataset.created': datasetEvent,
  'dataset.updated': datasetEvent,
  'dataset.deleted': datasetEvent,
  /** Sent by the trash restore, which knows only the id. */
  'dataset.restored': z.object({ id: z.string(), status: z.string().optional() }),
  'dataset.progress': z.object({ id: z.string(), phase: z.string(), done: z.number(), total: z.number() }),
  /** An edit of the working state (ADR 0037) took edit sequence number `seq`: pages of the dataset refetch. */
  'dataset.edited': z.object({ id: z.string(), seq: z.number(), kind: z.string(), counts: z.record(z.string(), z.number()) }),
  /** One image's labels were written (the labelling editor reloads it unless it wrote them). */
  'dataset.relabelled': z.object({ id: z.string(), imageId: z.string(), revision: z.number() }),
  /** On `dataset:<id>`: a version was saved, deleted or restored (ADR 0038); the Versions tab refetches. */
  'version.saved': z.object({ id: z.string(), number: z.number().int() }),
  'version.deleted': z.object({ id: z.string(), number: z.number().int() }),
  /**
   * Labels of the dataset changed (ADR 0039): one image (`imageId`, its new `revision`), or many at once
   * (`imageId` null: refetch what is shown); `counts` are label rows per class name after the change.
   */
  'labels.updated': z.object({
    id: z.string(),
    imageId: z.string().nullable(),
    revision: z.number().nullable(),
    counts: z.record(z.string(), z.number()).optional(),
  }),
  /** Suggestions of these images changed (`imageIds` null: many, refetch). */
  'suggestions.updated': z.object({ id: z.string(), imageIds: z.array(z.string()).nullable() }),
  /** A pre-labelling job of the dataset moved: progress while it runs, then its final status. */
  'prelabel.progress': z.object({ id: z.string(), jobId: z.string(), status: z.string(), done: z.number(), total: z.number() }),
  'model.created': modelEvent,
  /** Carries no model fields: the web app merges `.updated` payloads into its cached entity. */
  'model.updated': modelEvent,
  'model.deleted': modelEvent,
  'model.restored': modelEvent,
  /** A training run reported metrics: the numbers of the first 50 epochs, `final` once the run ends. */
  'model.metrics': modelEvent.extend({ epochs: z.array(z.number()), final: z.boolean() }),
  'model.console': modelEvent.extend({ chunkId: z.number() }),
  'endpoint.updated': idOnly,
  /** An evaluation of the model moved (ADR 0035): progress while it runs, then its final status. */
  'evaluation.progress': z.object({ id: z.string(), modelId: z.string(), done: z.number(), total: z.number() }),
  'evaluation.updated': z.object({ id: z.string(), modelId: z.string(), status: z.string() }),
  /** Teams (ADR 0008). On `user:<uid>`: the caller's teams changed (`team.invited`, `team.joined`, `team.left` drop or add items
   * in the lists at once); on `team:<id>`: the team itself changed. */
  'team.created': idOnly,
  'team.updated': idOnly,
  'team.deleted': idOnly,
  'team.invited': z.object({ id: z.string(), name: z.string(), inviteId: z.string() }),
  'team.joined': z.object({ id: z.string(), uid: z.string() }),
  'team.left': z.object({ id: z.string(), uid: z.string() }),
  /** On `user:<uid>:notifications`: a record was made or marked; the bell shows `unread`. */
  'notifications.changed': z.object({ unread: z.number().int() }),
} as const;
export type RealtimeEventName = keyof typeof realtimeEventSchemas;
export type RealtimeEventData<E extends RealtimeEventName> = z.infer<(typeof realtimeEventSchemas)[E]>;
export const REALTIME_EVENT_NAMES = Object.keys(realtimeEventSchemas) as RealtimeEventName[];

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), topic: z.string().max(200) }),
  z.object({ type: z.literal('unsubscribe'), topic: z.string().max(200) }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** A published event: `data` is null when the payload was too big for one NOTIFY (the client refetches). */
export type RealtimeEvent = {
  [E in RealtimeEventName]: { topic: string; event: E; data: RealtimeEventData<E> | null; truncated?: true };
}[RealtimeEventName];
/** An event as it arrives on the socket. */
export type ServerEventMessage = RealtimeEvent & { type: 'event' };
export type ServerEventOf<E extends RealtimeEventName> = Extract<ServerEventMessage, { event: E }>;

export type ServerMessage =
  | ServerEventMessage
  | { type: 'subscribed'; topic: string }
  | { type: 'error'; topic?: string; code: string; message: string }
  | { type: 'pong' }
  /** uid null: a signed-out socket (`?guest=1`), counted in the guests' presence. */
  | { type: 'hello'; uid: string | null };

/**
 * Reads an event off the wire against the catalogue: an unknown name or a payload that breaks
 * its schema gives null (the caller logs it), a truncated payload keeps `data: null`.
 */
export function parseServerEvent(raw: { topic: unknown; event: unknown; data: unknown; truncated?: unknown }): ServerEventMessage | null {
  if (typeof raw.topic !== 'string' || typeof raw.event !== 'string' || !(raw.event in realtimeEventSchemas)) return null;
  const event = raw.event as RealtimeEventName;
  if (raw.data === null || raw.data === undefined)
    return { type: 'event', topic: raw.topic, event, data: null, ...(raw.truncated ? { truncated: true } : {}) } as ServerEventMessage;
  const parsed = realtimeEventSchemas[event].safeParse(raw.data);
  if (!parsed.success) return null;
  return { type: 'event', topic: raw.topic, event, data: parsed.data } as ServerEventMessage;
}
