import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/admin.json';

addNamespace('admin', en);

/** The admin area's strings (locales/en/admin.json), registered with its chunk. */
export const useAdminT = () => useTranslation('admin');
