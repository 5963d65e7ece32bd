import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A page's title, description and buttons. The title keeps at least 220 px (the buttons wrap below
 * it rather than squeezing it); a long title wraps between words, breaking a word only when it must.
 */
export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg" wrap="wrap" gap="sm">
      <Stack gap={4} style={{ flex: '1 1 220px', minWidth: 0 }}>
        <Title order={1} fz={{ base: 22, sm: 26 }} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm" component="div">
            {description}
          </Text>
        )}
      </Stack>
      {actions && (
        <Group gap="sm" wrap="wrap">
          {actions}
        </Group>
      )}
    </Group>
  );
}
