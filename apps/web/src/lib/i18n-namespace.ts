import { DEFAULT_LANGUAGE } from '@sightline/contracts';
import i18n from './i18n';

/**
 * Registers a feature's language file when its (lazy) chunk loads, so the strings of a feature stay
 * out of the startup bundle. Call at module level next to the feature's `useTranslation(ns)`.
 */
export function addNamespace(ns: string, resources: Record<string, unknown>): void {
  if (!i18n.hasResourceBundle(DEFAULT_LANGUAGE, ns)) i18n.addResourceBundle(DEFAULT_LANGUAGE, ns, resources, true, false);
}
