import { ActionIcon, Button, Group, Menu, type ButtonVariant, type MantineColor } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDotsVertical } from '@tabler/icons-react';
import { BREAKPOINT_MOBILE } from '@sightline/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface HeaderAction {
  key: string;
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  variant?: ButtonVariant;
  color?: MantineColor;
  loading?: boolean;
  disabled?: boolean;
  testId?: string;
}

/**
 * A page header's buttons: a row of buttons, collapsed into one "Actions" menu at mobile widths
 * (spec §2: 641 px or less) when there is more than one, so the title and badges keep their room.
 */
export function HeaderActions({ actions, label }: { actions: HeaderAction[]; label?: string }) {
  const { t } = useTranslation();
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINT_MOBILE}px)`, false, { getInitialValueInEffect: false });
  if (actions.length === 0) return null;
  if (mobile && actions.length > 1) {
    return (
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label={label ?? t('actions.more')} data-testid="header-actions-menu">
            <IconDotsVertical size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {actions.map((a) => (
            <Menu.Item
              key={a.key}
              leftSection={a.icon}
              color={a.color === 'red' ? 'red' : undefined}
              onClick={a.onClick}
              disabled={a.disabled || a.loading}
              data-testid={a.testId}
            >
              {a.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    );
  }
  return (
    <Group gap="xs" wrap="wrap">
      {actions.map((a) => (
        <Button
          key={a.key}
          variant={a.variant ?? 'default'}
          color={a.color}
          leftSection={a.icon}
          onClick={a.onClick}
          loading={a.loading}
          disabled={a.disabled}
          data-testid={a.testId}
        >
          {a.label}
        </Button>
      ))}
    </Group>
  );
}
