import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/integrations.json';

addNamespace('integrations', en);

/** The integrations feature's strings (locales/en/integrations.json), registered with its chunk. */
export const useIntegrationsT = () => useTranslation('integrations');
