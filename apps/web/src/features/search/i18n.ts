import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/search.json';

addNamespace('search', en);

/** The search feature's strings (locales/en/search.json). */
export const useSearchT = () => useTranslation('search');
