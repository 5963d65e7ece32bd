import { useEffect, useState } from 'react';
import { Progress } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { allInitialized, SECTIONS, useStartup, type SectionState } from '../lib/startup';

export const STARTUP_HIDE_DELAY_MS = 1000;

/** Shows until the four sections are initialized, then hides 1 s later (spec §2). */
export function StartupProgress({ state: given }: { state?: SectionState }) {
  const live = useStartup();
  const state = given ?? live;
  const done = allInitialized(state);
  const [hidden, setHidden] = useState(done);
  const { t } = useTranslation();

  useEffect(() => {
    if (!done) {
      setHidden(false);
      return;
    }
    const timer = setTimeout(() => setHidden(true), STARTUP_HIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done]);

  if (hidden) return null;
  const value = (SECTIONS.filter((s) => state[s]).length / SECTIONS.length) * 100;
  return (
    <Progress.Root size={3} radius={0} pos="fixed" top={0} left={0} right={0} style={{ zIndex: 300 }} data-testid="startup-progress">
      <Progress.Section value={Math.max(value, 8)} animated={!done} aria-label={t('startup.loading')} />
    </Progress.Root>
  );
}
