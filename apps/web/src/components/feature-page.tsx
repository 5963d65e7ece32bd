import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

/** A page whose feature lands in a later issue: its header and an honest empty state. */
export function FeaturePage({
  title,
  description,
  icon,
  emptyTitle,
  emptyBody,
  action,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  icon: ReactNode;
  emptyTitle: ReactNode;
  emptyBody: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Stack gap={0}>
      <PageHeader title={title} description={description} />
      <EmptyState icon={icon} title={emptyTitle} description={emptyBody} action={action} />
      {children}
    </Stack>
  );
}
