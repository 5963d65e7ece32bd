import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/evaluation.json';

addNamespace('evaluation', en);

/** The evaluation feature's strings (locales/en/evaluation.json), registered with the feature's lazy chunk. */
export const useEvaluationT = () => useTranslation('evaluation');
