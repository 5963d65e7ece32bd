import { Button } from '@mantine/core';
import { IconCube } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { FeaturePage } from '../../../components/feature-page';

export default function ModelContentPage() {
  const { t } = useTranslation('pages');
  const { id = '' } = useParams();
  return (
    <FeaturePage
      title={t('models.contentTitle')}
      description={id}
      icon={<IconCube size={28} />}
      emptyTitle={t('models.contentEmptyTitle')}
      emptyBody={t('models.contentEmptyBody')}
      action={<Button component={Link} to="/models" variant="light">{t('models.back')}</Button>}
    />
  );
}
