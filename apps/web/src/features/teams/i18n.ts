import { useTranslation } from 'react-i18next';
import i18n from '../../lib/i18n';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/teams.json';

addNamespace('teams', en);

/** The teams feature's strings (locales/en/teams.json). */
export const useTeamsT = () => useTranslation('teams');

/** Outside components (notifications of the API hooks). */
export const tTeams = (key: string, options?: Record<string, string | number>) => i18n.t(`teams:${key}`, options);
