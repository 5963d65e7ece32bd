import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/exports.json';

addNamespace('exports', en);

/** The exports feature's strings (locales/en/exports.json), registered with its chunk. */
export const useExportsT = () => useTranslation('exports');
