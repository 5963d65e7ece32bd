import { Button } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { FeaturePage } from '../../../components/feature-page';

export default function TeamContentPage() {
  const { t } = useTranslation('pages');
  const { id = '' } = useParams();
  return (
    <FeaturePage
      title={t('teams.contentTitle')}
      description={id}
      icon={<IconUsersGroup size={28} />}
      emptyTitle={t('teams.contentEmptyTitle')}
      emptyBody={t('teams.contentEmptyBody')}
      action={<Button component={Link} to="/settings?tab=teams" variant="light">{t('teams.back')}</Button>}
    />
  );
}
