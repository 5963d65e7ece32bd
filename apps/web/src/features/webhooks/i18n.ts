import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/webhooks.json';

addNamespace('webhooks', en);

/** The webhooks feature's strings (locales/en/webhooks.json), registered with its chunk. */
export const useWebhooksT = () => useTranslation('webhooks');
