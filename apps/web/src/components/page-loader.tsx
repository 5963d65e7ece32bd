import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function PageLoader({ fullHeight = true }: { fullHeight?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center h={fullHeight ? '60vh' : 120} role="status" aria-live="polite" data-testid="page-loader">
      <Loader size="md" aria-label={t('loading')} />
    </Center>
  );
}
