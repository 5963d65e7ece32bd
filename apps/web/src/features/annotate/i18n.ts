import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/annotate.json';

addNamespace('annotate', en);

/** The annotation editor's strings (locales/en/annotate.json), registered with the feature's chunk. */
export const useAnnotateT = () => useTranslation('annotate');
