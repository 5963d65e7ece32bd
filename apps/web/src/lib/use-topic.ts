import { useEffect, useRef } from 'react';
import type { ServerEventMessage } from '@sightline/contracts';
import { realtime } from './realtime';

/** Subscribes to a realtime topic while mounted (null: none); the latest handler gets each event. */
export function useTopic(topic: string | null, handler: (message: ServerEventMessage) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!topic) return;
    return realtime.subscribe(topic, (message) => latest.current(message));
  }, [topic]);
}
