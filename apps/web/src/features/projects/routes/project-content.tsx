import { Button } from '@mantine/core';
import { IconFolders } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { FeaturePage } from '../../../components/feature-page';

export default function ProjectContentPage() {
  const { t } = useTranslation('pages');
  const { id = '' } = useParams();
  return (
    <FeaturePage
      title={t('projects.contentTitle')}
      description={id}
      icon={<IconFolders size={28} />}
      emptyTitle={t('projects.contentEmptyTitle')}
      emptyBody={t('projects.contentEmptyBody')}
      action={<Button component={Link} to="/projects" variant="light">{t('projects.back')}</Button>}
    />
  );
}
