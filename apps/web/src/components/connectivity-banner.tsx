import { Badge, Group, Text } from '@mantine/core';
import { IconWifiOff, IconLoader2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useConnectivity } from '../lib/connectivity';
import classes from './connectivity-banner.module.css';

/** Shown while the /alive check fails (spec §4: connecting after 2 failures, offline after 9). */
export function ConnectivityBanner() {
  const { status } = useConnectivity();
  const { t } = useTranslation();
  if (status === 'online') return null;
  return (
    <div className={classes.banner} data-status={status} role="status" data-testid="connectivity">
      <Group gap="xs" justify="center" wrap="nowrap">
        {status === 'offline' ? <IconWifiOff size={16} aria-hidden /> : <IconLoader2 size={16} className={classes.spin} aria-hidden />}
        <Text size="sm" fw={500}>
          {t(`connectivity.${status}`)}
        </Text>
        <Badge size="xs" color={status === 'offline' ? 'red' : 'yellow'} variant="filled">
          {t(`connectivity.badge.${status}`)}
        </Badge>
      </Group>
    </div>
  );
}
