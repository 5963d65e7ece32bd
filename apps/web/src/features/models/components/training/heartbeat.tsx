import { Badge, Group, Text } from '@mantine/core';
import { TRAINING_HEARTBEAT_MS, TRAINING_INITIALIZATION_MS, type ModelDates, type ModelStatus } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { TRAINING_NS } from '../../../../lib/i18n-training';

export type HeartbeatState =
  | { kind: 'none' }
  | { kind: 'waiting' }
  | { kind: 'live'; since: Date; ageMs: number }
  | { kind: 'disconnected'; since: Date; ageMs: number }
  | { kind: 'finished'; at: Date };

/**
 * What the page says about the client: last sign of life (heartbeat, or any reported event: Platform
 * clients send no heartbeats, every event counts) and, past the 5-minute heartbeat window of spec
 * §4, that it is disconnected since then.
 */
export function heartbeatState(dates: ModelDates, now: number): HeartbeatState {
  const train = dates.train;
  if (train.end) return { kind: 'finished', at: new Date(train.end) };
  const last = train.heartbeat ?? train.initialized ?? train.start;
  if (!last) return { kind: 'none' };
  const since = new Date(last);
  const ageMs = Math.max(0, now - since.getTime());
  // Started but never heard from: spec §4 waits 15 min (Initializing) before giving up.
  if (!train.heartbeat) return ageMs > TRAINING_INITIALIZATION_MS ? { kind: 'disconnected', since, ageMs } : { kind: 'waiting' };
  return ageMs > TRAINING_HEARTBEAT_MS ? { kind: 'disconnected', since, ageMs } : { kind: 'live', since, ageMs };
}

/** "12 seconds ago", "7 minutes ago", in the page language. */
export function formatAge(ms: number, language = 'en'): string {
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
  const s = Math.round(ms / 1000);
  if (s < 60) return rtf.format(-s, 'second');
  const m = Math.floor(s / 60);
  if (m < 60) return rtf.format(-m, 'minute');
  const h = Math.floor(m / 60);
  if (h < 48) return rtf.format(-h, 'hour');
  return rtf.format(-Math.floor(h / 24), 'day');
}

export function formatMoment(date: Date, language = 'en'): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

const STATUS_COLORS: Record<ModelStatus, string> = {
  Status: 'gray',
  New: 'gray',
  Initializing: 'blue',
  Training: 'green',
  Timeout: 'orange',
  Trained: 'teal',
  Stopped: 'yellow',
  Failed: 'red',
};

export function StatusBadge({ status }: { status: ModelStatus }) {
  const { t } = useTranslation(TRAINING_NS);
  return (
    <Badge size="lg" variant="light" color={STATUS_COLORS[status]} data-testid="training-status" data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/** Heartbeat age, or an explicit "disconnected since …" once the client has been quiet too long. */
export function HeartbeatIndicator({ dates, now }: { dates: ModelDates; now: number }) {
  const { t, i18n } = useTranslation(TRAINING_NS);
  const state = heartbeatState(dates, now);
  if (state.kind === 'none') return null;
  const lang = i18n.language;
  let color = 'dimmed';
  let text: string;
  switch (state.kind) {
    case 'waiting':
      text = t('heartbeat.waiting');
      break;
    case 'live':
      color = 'green.8';
      text = t('heartbeat.live', { age: formatAge(state.ageMs, lang) });
      break;
    case 'disconnected':
      color = 'red.8';
      text = t('heartbeat.disconnected', { since: formatMoment(state.since, lang), age: formatAge(state.ageMs, lang) });
      break;
    case 'finished':
      text = t('heartbeat.finished', { at: formatMoment(state.at, lang) });
      break;
  }
  return (
    <Group gap={6} wrap="nowrap" data-testid="heartbeat" data-state={state.kind}>
      {(state.kind === 'live' || state.kind === 'disconnected') && (
        <span
          aria-hidden
          style={{
            width: 8,
            height: 8,
            borderRadius: 4,
            flex: 'none',
            background: state.kind === 'live' ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-red-6)',
          }}
        />
      )}
      <Text size="sm" c={color} fw={state.kind === 'disconnected' ? 600 : undefined}>
        {text}
      </Text>
    </Group>
  );
}
