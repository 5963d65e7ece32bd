import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function SectionCard({ title, description, children, danger }: { title: ReactNode; description?: ReactNode; children: ReactNode; danger?: boolean }) {
  return (
    <Paper withBorder radius="md" p="lg" style={danger ? { borderColor: 'var(--mantine-color-red-3)' } : undefined}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} fz="lg" c={danger ? '#c02626' : undefined}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
