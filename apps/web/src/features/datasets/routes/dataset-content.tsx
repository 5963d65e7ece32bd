import { Button } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { FeaturePage } from '../../../components/feature-page';

export default function DatasetContentPage() {
  const { t } = useTranslation('pages');
  const { id = '' } = useParams();
  return (
    <FeaturePage
      title={t('datasets.contentTitle')}
      description={id}
      icon={<IconDatabase size={28} />}
      emptyTitle={t('datasets.contentEmptyTitle')}
      emptyBody={t('datasets.contentEmptyBody')}
      action={<Button component={Link} to="/datasets" variant="light">{t('datasets.back')}</Button>}
    />
  );
}
