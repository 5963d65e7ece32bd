import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE } from '@sightline/contracts';
import common from '../locales/en/common.json';
import auth from '../locales/en/auth.json';
import settings from '../locales/en/settings.json';
import errors from '../locales/en/errors.json';
import pages from '../locales/en/pages.json';

/** Language files are bundled (no network); default language en (spec §9). */
export const resources = { en: { common, auth, settings, errors, pages } } as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: 'common',
  ns: Object.keys(resources.en),
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Message of an error code; codes may carry a suffix after ':' (e.g. the existing sign-in method). */
export function errorMessage(code: string | undefined, fallback?: string): string {
  if (!code) return fallback ?? i18n.t('errors:unknown');
  const [base, extra] = code.split(':');
  const key = `errors:codes.${base.replace(/[/.]/g, '_')}`;
  return i18n.exists(key) ? i18n.t(key, { method: extra ?? '' }) : (fallback ?? i18n.t('errors:unknown'));
}

export default i18n;
