import { z } from 'zod';
/**
 * Realtime wire format on `/v1/realtime`.
 * client → server: {type:'subscribe'|'unsubscribe', topic} | {type:'ping'}
 * server → client: {type:'event', topic, event, data} | {type:'subscribed'|'error', topic?, code?} | {type:'pong'}
 * Topics: `user:<uid>`, `model:<id>`, `dataset:<id>`, `user:<uid>:datasets`, `presence:<uid>`.
 */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), topic: z.string().max(200) }),
  z.object({ type: z.literal('unsubscribe'), topic: z.string().max(200) }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export interface ServerEventMessage {
  type: 'event';
  topic: string;
  event: string;
  data: unknown;
}
export type ServerMessage =
  | ServerEventMessage
  | { type: 'subscribed'; topic: string }
  | { type: 'error'; topic?: string; code: string; message: string }
  | { type: 'pong' }
  | { type: 'hello'; uid: string };
