import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/explore.json';

addNamespace('explore', en);

/** The explore feature's strings (locales/en/explore.json), registered with its chunk. */
export const useExploreT = () => useTranslation('explore');
