import { Button } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { FeaturePage } from '../../../components/feature-page';

export default function RoboflowDatasetPage() {
  const { t } = useTranslation('pages');
  const { id = '' } = useParams();
  return (
    <FeaturePage
      title={t('roboflow.contentTitle')}
      description={id}
      icon={<IconPlugConnected size={28} />}
      emptyTitle={t('roboflow.contentEmptyTitle')}
      emptyBody={t('roboflow.contentEmptyBody')}
      action={<Button component={Link} to="/settings?tab=integrations" variant="light">{t('roboflow.back')}</Button>}
    />
  );
}
