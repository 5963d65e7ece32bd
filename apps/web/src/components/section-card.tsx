import { Paper, Stack, Text, Title, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled card of a settings-like page (settings tabs, billing, admin sections). */
export function SectionCard({
  title,
  description,
  children,
  danger,
  testId,
  mt,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  danger?: boolean;
  testId?: string;
  mt?: MantineSpacing;
}) {
  return (
    <Paper withBorder radius="md" p="lg" mt={mt} style={danger ? { borderColor: 'var(--mantine-color-red-3)' } : undefined} data-testid={testId}>
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
