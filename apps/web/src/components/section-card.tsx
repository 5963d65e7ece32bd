import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled card of a settings-like page (settings tabs, billing). */
export function SectionCard({ title, description, children, danger, testId }: { title: ReactNode; description?: ReactNode; children: ReactNode; danger?: boolean; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="lg" style={danger ? { borderColor: 'var(--mantine-color-red-3)' } : undefined} data-testid={testId}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} fz="lg" c={danger ? 'var(--mantine-color-error)' : undefined}>
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
