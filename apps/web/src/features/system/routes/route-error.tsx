import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useEffect } from 'react';
import { reportError } from '../../../lib/monitoring';

/** Error boundary of the router: a failed page load (after its one reload) or a router error. */
export default function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation('pages');
  useEffect(() => {
    if (!isRouteErrorResponse(error)) reportError(error);
  }, [error]);
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Center mih="70vh" p="md">
      <Stack align="center" ta="center" maw={520} gap="sm">
        <Title order={1} fz={26}>
          {t('routeError.title')}
        </Title>
        <Text c="dimmed">{t('routeError.body')}</Text>
        <Code>{message}</Code>
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
      </Stack>
    </Center>
  );
}
