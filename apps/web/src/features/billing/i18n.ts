import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/billing.json';

addNamespace('billing', en);

/** The billing feature's strings (locales/en/billing.json), registered with its chunk. */
export const useBillingT = () => useTranslation('billing');
