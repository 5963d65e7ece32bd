import { SegmentedControl, Stack, Text, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/section-card';

const SCHEMES: MantineColorScheme[] = ['auto', 'light', 'dark'];

/** Light, dark, or the system's setting (the default); remembered in this browser. */
export function AppearanceSection() {
  const { t } = useTranslation('settings');
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <SectionCard title={t('appearance.title')} description={t('appearance.description')}>
      <Stack gap={6}>
        <SegmentedControl
          value={colorScheme}
          onChange={(value) => setColorScheme(value as MantineColorScheme)}
          data={SCHEMES.map((value) => ({ value, label: t(`appearance.${value}`) }))}
          aria-label={t('appearance.title')}
          data-testid="color-scheme"
          w="fit-content"
          maw="100%"
        />
        <Text size="xs" c="dimmed">
          {t('appearance.hint')}
        </Text>
      </Stack>
    </SectionCard>
  );
}
