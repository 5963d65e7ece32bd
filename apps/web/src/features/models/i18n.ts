import { useTranslation } from 'react-i18next';
import i18n from '../../lib/i18n';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/models.json';

addNamespace('models', en);

/** The models feature's strings (locales/en/models.json), registered with the feature's lazy chunk. */
export const useModelsT = () => useTranslation('models');

/** Outside components (notifications of the API hooks). */
export const tModels = (key: string, options?: Record<string, string | number>) => i18n.t(`models:${key}`, options);
