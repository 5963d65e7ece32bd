import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/agents.json';

addNamespace('agents', en);

/** The agents feature's strings (locales/en/agents.json), registered with its chunk. */
export const useAgentsT = () => useTranslation('agents');

export const usd = (micro: number) => `$${(micro / 1_000_000).toFixed(2)}`;
