import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/datasets.json';

addNamespace('datasets', en);

/** The datasets feature's strings (locales/en/datasets.json), registered with the feature's chunk. */
export const useDatasetsT = () => useTranslation('datasets');
