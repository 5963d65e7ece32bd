import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FeaturePage } from '../../../components/feature-page';

export default function TrashPage() {
  const { t } = useTranslation('pages');
  return <FeaturePage title={t('trash.title')} description={t('trash.description')} icon={<IconTrash size={28} />} emptyTitle={t('trash.emptyTitle')} emptyBody={t('trash.emptyBody')} />;
}
