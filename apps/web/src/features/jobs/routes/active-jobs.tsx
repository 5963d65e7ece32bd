import { IconActivity } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FeaturePage } from '../../../components/feature-page';

export default function ActiveJobsPage() {
  const { t } = useTranslation('pages');
  return <FeaturePage title={t('activeJobs.title')} description={t('activeJobs.description')} icon={<IconActivity size={28} />} emptyTitle={t('activeJobs.emptyTitle')} emptyBody={t('activeJobs.emptyBody')} />;
}
