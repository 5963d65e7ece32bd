import { Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiKeyPicker, useApiKeyChoice } from '../../../components/api-key-picker';
import { CodeSnippet } from '../../../components/code-snippet';
import { legacyLoginSnippet, PLATFORM_CLIENT_MIN_VERSION, platformLoginSnippet, predictSnippets } from '../../../lib/client-snippets';
import { TRAINING_NS } from '../../../lib/i18n-training';
import { SectionCard } from '../../../components/section-card';

/**
 * One secret, two spellings: `ul_<40 hex>` for current clients and the 42-character `ul<40 hex>`
 * that legacy HUB clients require. Setup snippets for each, with the chosen key.
 */
export function ApiKeySnippets() {
  const { t } = useTranslation(TRAINING_NS);
  const choice = useApiKeyChoice();
  const origin = window.location.origin;
  const inference = predictSnippets({ origin, modelId: '<model id>', key: choice.key, conf: 0.25, iou: 0.45, imgsz: 640 }).curl;
  return (
    <SectionCard title={t('keySnippets.title')} description={t('keySnippets.description')}>
      <Stack gap="md" data-testid="api-key-snippets">
        <ApiKeyPicker choice={choice} newKeyName={t('keys.defaultName')} />
        <Tabs defaultValue="platform" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="platform">{t('options.platformTab', { version: PLATFORM_CLIENT_MIN_VERSION })}</Tabs.Tab>
            <Tabs.Tab value="legacy">{t('options.legacyTab', { version: PLATFORM_CLIENT_MIN_VERSION })}</Tabs.Tab>
            <Tabs.Tab value="inference">{t('keySnippets.inferenceTab')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="platform" pt="sm">
            <Stack gap="xs">
              <Text size="sm">{t('keySnippets.platformHelp')}</Text>
              <CodeSnippet
                code={platformLoginSnippet(origin, choice.key)}
                secrets={[choice.secret?.key]}
                revealed={choice.revealed}
                label={t('options.platformSnippet')}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="legacy" pt="sm">
            <Stack gap="xs">
              <Text size="sm">{t('keySnippets.legacyHelp')}</Text>
              <CodeSnippet
                code={legacyLoginSnippet(origin, choice.legacyKey)}
                secrets={[choice.secret?.legacyKey]}
                revealed={choice.revealed}
                label={t('options.legacySnippet')}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="inference" pt="sm">
            <Stack gap="xs">
              <Text size="sm">{t('keySnippets.inferenceHelp')}</Text>
              <CodeSnippet code={inference} secrets={[choice.secret?.key]} revealed={choice.revealed} label={t('keySnippets.inferenceTab')} />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </SectionCard>
  );
}
