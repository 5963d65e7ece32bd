import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** An honest empty state: what will live here, and what can be done now. */
export function EmptyState({ icon, title, description, action }: { icon: ReactNode; title: ReactNode; description?: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid="empty-state" style={{ borderStyle: 'dashed' }}>
      <Stack align="center" gap="sm" py="xl" maw={520} mx="auto" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Title order={2} fz={20}>
          {title}
        </Title>
        {description && <Text c="dimmed">{description}</Text>}
        {action}
      </Stack>
    </Paper>
  );
}
