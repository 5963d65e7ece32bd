import { useState } from 'react';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiKeyPicker, useApiKeyChoice } from '../../../../components/api-key-picker';
import { CodeSnippet } from '../../../../components/code-snippet';
import { predictSnippets, type PredictLanguage } from '../../../../lib/client-snippets';
import { TRAINING_NS } from '../../../../lib/i18n-training';

/** The same prediction from code: curl, Python or JavaScript, with one of the user's API keys. */
export function PredictSnippet({ modelId, modelName, conf, iou, imgsz }: { modelId: string; modelName: string; conf: number; iou: number; imgsz: number }) {
  const { t } = useTranslation(TRAINING_NS);
  const choice = useApiKeyChoice();
  const [language, setLanguage] = useState<PredictLanguage>('curl');
  const code = predictSnippets({ origin: window.location.origin, modelId, key: choice.key, conf, iou, imgsz })[language];
  return (
    <Stack gap="sm" data-testid="predict-snippet">
      <Text size="sm" c="dimmed">
        {t('preview.apiHelp')}
      </Text>
      <ApiKeyPicker choice={choice} newKeyName={t('keys.inferenceKeyName', { model: modelName }).slice(0, 64)} />
      <SegmentedControl
        value={language}
        onChange={(v) => setLanguage(v as PredictLanguage)}
        data={[
          { value: 'curl', label: 'cURL' },
          { value: 'python', label: 'Python' },
          { value: 'javascript', label: 'JavaScript' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <CodeSnippet code={code} secrets={[choice.secret?.key]} revealed={choice.revealed} label={t('preview.apiSnippet', { language })} />
    </Stack>
  );
}
