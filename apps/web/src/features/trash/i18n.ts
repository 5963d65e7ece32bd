import { useTranslation } from 'react-i18next';
import i18n from '../../lib/i18n';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/trash.json';

addNamespace('trash', en);

/** The trash feature's strings (locales/en/trash.json), registered with the feature's lazy chunk. */
export const useTrashT = () => useTranslation('trash');

/** Outside components (notifications of the API hooks). */
export const tTrash = (key: string, options?: Record<string, string | number>) => i18n.t(`trash:${key}`, options);
