import { ActionIcon, Button, Group, Loader, Paper, Progress, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX, IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifications, useNotifications, type ActiveNotification } from '../lib/notifications';
import classes from './notification-area.module.css';

const COLORS = { success: 'green', error: 'red', pending: 'night' } as const;
/** Success green, error red, pending dark blue (spec §8), each ≥ 4.5:1 against the white text. */
const BACKGROUNDS = { success: '#1f7a35', error: '#c02626', pending: '#1f2a45' } as const;

function TypeIcon({ type }: { type: ActiveNotification['type'] }) {
  if (type === 'pending') return <Loader size={18} color="white" type="oval" aria-hidden />;
  return (
    <ThemeIcon variant="white" color={COLORS[type]} radius="xl" size={24} aria-hidden>
      {type === 'success' ? <IconCheck size={16} /> : type === 'error' ? <IconAlertTriangle size={16} /> : null}
    </ThemeIcon>
  );
}

export function NotificationToast({ notification, onNavigate }: { notification: ActiveNotification; onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  const n = notification;
  const action = n.link?.text ?? n.callback?.text;
  const percent = n.permanent ? 100 : Math.max(0, (n.remaining / n.timeout) * 100);
  return (
    <Paper
      className={classes.toast}
      data-type={n.type}
      data-testid="notification"
      bg={BACKGROUNDS[n.type]}
      c="white"
      shadow="lg"
      radius="md"
      role={n.type === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => notifications.pause(n.id)}
      onMouseLeave={() => notifications.resume(n.id)}
    >
      <Group wrap="nowrap" gap="sm" align="center" p="sm" pr="xs">
        <TypeIcon type={n.type} />
        <Text size="sm" fw={500} style={{ flex: 1 }}>
          {n.message}
        </Text>
        {action && (
          <Button size="compact-sm" variant="white" color={BACKGROUNDS[n.type]} onClick={() => notifications.act(n.id, onNavigate)}>
            {action}
          </Button>
        )}
        {n.close && (
          <ActionIcon variant="subtle" color="white" aria-label={t('notifications.close')} onClick={() => notifications.dismiss(n.id)}>
            <IconX size={16} />
          </ActionIcon>
        )}
      </Group>
      {!n.permanent && (
        <Progress.Root size={3} radius={0} bg="rgba(0,0,0,0.2)" transitionDuration={100}>
          <Progress.Section value={percent} color="rgba(255,255,255,0.75)" aria-label={t('notifications.timeLeft')} />
        </Progress.Root>
      )}
    </Paper>
  );
}

/** Fixed at the top on small screens, bottom right and 430 px wide on larger ones (spec §2). */
export function NotificationArea() {
  const active = useNotifications((s) => s.active);
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (
    <section className={classes.area} aria-label={t('notifications.region')} aria-live="polite">
      {active.map((n) => (
        <NotificationToast key={n.id} notification={n} onNavigate={(path) => navigate(path)} />
      ))}
    </section>
  );
}
